/**
 * Schema of the DynamoDB stores: two tables, `<prefix>data` (sessions, fences, messages, webhooks, delivery
 * failures, automation rules, chats, auth state) and `<prefix>main` (API keys, audit log), both PAY_PER_REQUEST
 * with string keys `pk`/`sk` and two sparse GSIs (`gsi1`, `gsi2`, keys `gsi1pk`/`gsi1sk`, `gsi2pk`/`gsi2sk`,
 * projection ALL). Items, by family:
 *
 * data table
 * - session          pk `SESSIONS`, sk `SESSION#<id>`. One partition for all sessions, so list, sweeps and counts
 *                    are strongly consistent Query calls (sessions number in the hundreds, not millions).
 * - session name     pk `SESSIONNAME#<name>`, sk `LOCK`, `sessionId`: written in the same transaction as the
 *                    session, which is what makes names unique (case-sensitive, like the key).
 * - fence            pk `FENCE#<name>`, sk `FENCE`, `expiresAt` (ISO), `ttl` (epoch s) so DynamoDB TTL deletes
 *                    settled fences eventually; reads compare `expiresAt` and never rely on TTL having run.
 * - message          pk `MESSAGE#<id>`, sk `MESSAGE` (ids unique store-wide); gsi1pk `MSG#<sessionId>`,
 *                    gsi2pk `MSGCHAT#<sessionId>#<chatId>`, both sks the history order key (see messageOrderKey);
 *                    `searchText` the folded words of the body, which search filters on (dynamodb-message-search.ts).
 * - network id       pk `WAMSG#<sessionId>#<waMessageId>`, sk `LOCK`, `messageId`: written with the message in one
 *                    transaction; it deduplicates re-fired inbound messages and serves findByWaMessageId.
 * - outbox entry     pk `OUTBOX#<id>`, sk `OUTBOX`, the event as JSON text; gsi1pk `OUTBOX#<0-3>` (a shard of the
 *                    id), gsi1sk `<dueAt>#<id>` (creation, then last claim): written in the same transaction as
 *                    the message row or status write it describes, swept by time (dynamodb-event-outbox.ts).
 * - webhook          pk `WEBHOOKS#<sessionId>`, sk `WEBHOOK#<id>`: one partition per session (consistent reads for
 *                    its list and the fan-out); gsi1pk `WEBHOOKS`, gsi1sk `<createdAt>#<id>` for the list across
 *                    sessions. The partition's sk `COUNT` item (`n`) counts its webhooks for the per-session cap.
 * - delivery failure pk `WHFAILKEY#<idempotencyKey>`, sk `WHFAIL#<id>` (a later success clears a key with one
 *                    Query); gsi1pk `WHFAILS` (everything, by time), gsi2pk `WHFAILSESSION#<sessionId>`; both
 *                    sks `<createdAt>#<id>`.
 * - automation rule  pk `RULES#<sessionId>`, sk `RULE#<id>`, plus the partition's `COUNT` item as for webhooks.
 * - rule cooldown    pk `COOLDOWN#<ruleId>#<chatId>`, sk `COOLDOWN`, `endsAt` (ISO), `ttl` (epoch s): claimed by a
 *                    conditional put; TTL removes ended ones eventually, reads compare `endsAt`.
 * - template         pk `TEMPLATES#<sessionId>`, sk `TEMPLATE#<id>`, plus the partition's `COUNT` item as for
 *                    webhooks and its name locks: sk `NAME#<name>`, `templateId`, written, moved (rename) and removed
 *                    in the same transaction as the template, which keeps names unique per session.
 * - send key         pk `SENDKEYS#<sessionId>`, sk `KEY#<Idempotency-Key>`, `requestHash`, `messageId`, `createdAt`
 *                    (ISO), `ttl` (epoch s, 24 h on): claimed by a conditional put (absent or expired); TTL removes
 *                    expired ones eventually, claims compare `createdAt`.
 * - identity alias   pk `IDENT#<sessionId>`: sk `LID#<lid>` with its `phone`, and sk `PN#<phone>#<lid>` with `lid`
 *                    (a phone's LIDs in one Query); both written in one transaction.
 * - send pacing      pk `PACING#<sessionId>`, sk `PACING`: the UTC `day` and its `sent`/`cold` counts, the failure
 *                    streak `failures`, `openUntil` (epoch ms) while the breaker is open, `ttl` (epoch s, a week past
 *                    the day or the cooldown): changed by conditional updates (dynamodb-send-pacing-store.ts); reads
 *                    compare `day` and `openUntil`, never relying on TTL.
 * - chat             pk `CHATS#<sessionId>`, sk `CHAT#<chatId>`: the chat list of a session (dynamodb-chat-store.ts),
 *                    `version` bumped by every write (conditional puts); gsi1pk `CHATS#<sessionId>`, gsi1sk the list
 *                    order key (chatOrderKey: inverted, zero-padded timestamp, then the chat id).
 * - status update    pk `STATUSES#<sessionId>`, sk `STATUS#<statusId>` (dynamodb-status-store.ts); gsi1pk
 *                    `STATUSES#<sessionId>`, gsi1sk the inverted posting time and the id (newest first); gsi2pk
 *                    `STATUS-EXPIRY`, gsi2sk `<expiresAt>#<sessionId>#<statusId>` (the sweep); `ttl` a week past expiry.
 * - message batch    pk `BATCHES#<sessionId>`, sk `BATCH#<batchId>` (snake_case columns of batch-rows.ts, its
 *                    items left out; the conditional put keeps batchIds unique per session); the items' JSON in
 *                    parts sk `BATCHPART#<batchId>#<i>` (`v`), written in the same transaction. While unfinished:
 *                    gsi1pk `BATCHES#UNFINISHED`, gsi1sk `<sessionId>#<created_at>#<batchId>` (cap count, resume).
 * - settings         pk `SETTINGS`, sk `RUNTIME`: the run-time settings' overrides as JSON in `v`, `updatedAt`.
 * - message stats    pk `STATS#<sessionId>` (sk `TOTAL`, and `H#<epoch hour>` with `ttl`) and `STATCHATS#<sessionId>`
 *                    (sk `CHAT#<chatId>`, day counts, `ttl`): counters the message store bumps after each insert and
 *                    failed send (dynamodb-message-stats.ts), which the statistics routes read.
 * - auth state       pk `AUTH#<sessionId>`: one partition per linked device (wipe = one Query + batched deletes).
 *                    Text in `v`. sk `CREDS` the credentials; `KEY#<category length>:<category>#<id length>:<id>`
 *                    a Signal key (lengths in UTF-16 units keep any characters unambiguous; `KEYH#<sha256>` when
 *                    that exceeds a sort key's 1 KB); `PART#<head sk>#<i>` part i ≥ 1 of a value above 350 KB (the
 *                    head holds part 0, the count `n` and the revision `r` its parts share);
 *                    `JOURNAL#<commit ms>#<random>` a committed batch too large for one transaction, deleted once
 *                    applied (see dynamodb-auth-journal.ts; its own parts are `PART#JOURNAL#…`).
 *
 * main table
 * - API key          pk `APIKEYS`, sk `KEY#<id>`: one consistent partition, so the last-admin guard reads every
 *                    key strongly consistently (a GSI read could be stale and let the last admin go).
 * - key hash         pk `APIKEYHASH#<keyHash>`, sk `LOCK`, `keyId`: unique hashes and lookup by hash.
 * - admin guard      pk `APIKEYGUARD`, sk `GUARD`, `version`: bumped by every guarded change (optimistic lock).
 * - audit entry      pk `AUDIT#<id>`, sk `AUDIT`; gsi1pk `AUDIT` (everything, by time), gsi2pk
 *                    `AUDITSESSION#<sessionId>` (entries of one session); both sks `<createdAt>#<id>`.
 *
 * Time-ordered sort keys use the ISO strings as stored; the gateway always writes `toISOString()` (UTC, ms),
 * whose lexical order is chronological.
 */
import {
  CreateTableCommand,
  type DynamoDBClient,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';

/** The table names for a prefix. */
export function tableNames(prefix: string): { data: string; main: string } {
  return { data: `${prefix}data`, main: `${prefix}main` };
}

const S = 'S' as const;

function tableInput(name: string) {
  const gsi = (n: 1 | 2) => ({
    IndexName: `gsi${n}`,
    KeySchema: [
      { AttributeName: `gsi${n}pk`, KeyType: 'HASH' as const },
      { AttributeName: `gsi${n}sk`, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  });
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'].map((AttributeName) => ({
      AttributeName,
      AttributeType: S,
    })),
    KeySchema: [
      { AttributeName: 'pk', KeyType: 'HASH' as const },
      { AttributeName: 'sk', KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: [gsi(1), gsi(2)],
  };
}

/** Creates both tables of a prefix (PAY_PER_REQUEST), waits until they exist and turns on TTL for fences. */
export async function createTables(client: DynamoDBClient, prefix: string): Promise<void> {
  const names = tableNames(prefix);
  await Promise.all(
    [names.data, names.main].map(async (name) => {
      await client.send(new CreateTableCommand(tableInput(name)));
      await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: name });
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: names.data,
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
    }),
  );
}
