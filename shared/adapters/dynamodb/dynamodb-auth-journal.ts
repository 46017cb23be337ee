/**
 * The redo journal of the DynamoDB auth-state store, for batches too large for one TransactWriteItems (Baileys
 * uploads about 800 pre-keys at first link; DynamoDB takes at most 100 items and 4 MB per transaction).
 *
 * A batch is first written whole as a journal under the session's partition, then applied in transactions, then
 * the journal is deleted. The journal's head item is the COMMIT POINT: once its PutItem succeeded the batch is
 * durable and will become visible entirely (the writer applies it, or whoever touches the session next after a
 * crash rolls it forward); before that, nothing of the batch is visible. A journal larger than one item keeps the
 * rest in part items written before the head, so a head never exists without all of its parts, and parts
 * without a head are leftovers of a crash before the commit point, deleted on recovery.
 *
 * Applying is idempotent (puts and deletes of whole items), so rolling a journal forward twice is harmless. The
 * session's writes are serialised and each waits for the previous journal to be deleted, so a replay can never
 * overwrite a later write.
 */
import { randomBytes } from 'node:crypto';
import { UnavailableError } from '#shared/errors/app-error.js';
import {
  type Entry,
  JOURNAL_PREFIX,
  PART_PREFIX,
  parsePartSk,
  partSk,
  planEntry,
} from './dynamodb-auth-layout.js';
import {
  type AuthTable,
  batchWrite,
  type ItemKey,
  readValues,
  writeAtomically,
} from './dynamodb-auth-requests.js';
import { type Item, queryAll } from './dynamodb-support.js';

/** A committed journal: its head sort key and the number of part items beyond the head. */
export interface JournalRef {
  sk: string;
  extraParts: number;
}

/**
 * A new journal's head sort key: commit time first, so pending journals roll forward in the order they were
 * committed, then randomness so two writers can never pick the same one.
 */
function journalSk(): string {
  return `${JOURNAL_PREFIX}${String(Date.now()).padStart(15, '0')}#${randomBytes(6).toString('hex')}`;
}

/**
 * Commits `entries` (head sort key → value, null deleting) to the journal of partition `pk`. Resolved means
 * committed: the entries will all be applied. The store calls this for large batches; tests call it alone to
 * leave a committed journal behind, as a writer killed right after the commit point would.
 */
export async function commitJournal(
  t: AuthTable,
  pk: string,
  entries: readonly Entry[],
): Promise<JournalRef> {
  const sk = journalSk();
  const { writes, extraParts } = planEntry(pk, [sk, JSON.stringify(entries)], 0, 'journal');
  // planEntry puts the head last: the parts go first, in any order, and the head alone commits.
  const head = writes.pop();
  if (head === undefined) throw new Error('a journal always has a head item');
  await batchWrite(t, writes);
  await writeAtomically(t, [head]);
  return { sk, extraParts };
}

/** Deletes a journal that has been applied: the head first, so a crash in between leaves only orphan parts. */
export async function deleteJournal(t: AuthTable, pk: string, journal: JournalRef): Promise<void> {
  await writeAtomically(t, [{ delete: { pk, sk: journal.sk }, bytes: 0 }]);
  const parts = Array.from({ length: journal.extraParts }, (_, i) => ({
    delete: { pk, sk: partSk(journal.sk, i + 1) },
    bytes: 0,
  }));
  await batchWrite(t, parts);
}

/** What a session holds besides its values, as found when a process first touches it. */
export interface SessionScan {
  /** Parts beyond the head per multipart value head (including leftovers no head uses any more). */
  extraParts: Map<string, number>;
  /** Committed journals not yet deleted, oldest first. */
  journals: JournalRef[];
  /** Parts of journals that were never committed. */
  orphans: ItemKey[];
}

/** Finds the session's committed journals and every part item (two queries, keys only for the parts). */
export async function scanSession(t: AuthTable, pk: string): Promise<SessionScan> {
  const query = (prefix: string) =>
    queryAll(t.doc, {
      TableName: t.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ProjectionExpression: '#sk, #n',
      ExpressionAttributeNames: { '#sk': 'sk', '#n': 'n' },
      ConsistentRead: true,
    });
  const [heads, parts]: [Item[], Item[]] = await Promise.all([query(JOURNAL_PREFIX), query(PART_PREFIX)]);
  const journals = heads.map((head) => ({
    sk: head.sk as string,
    extraParts: typeof head.n === 'number' ? head.n - 1 : 0,
  }));
  const committed = new Set(journals.map((journal) => journal.sk));
  const extraParts = new Map<string, number>();
  const orphans: ItemKey[] = [];
  for (const part of parts) {
    const sk = part.sk as string;
    const parsed = parsePartSk(sk);
    if (parsed === null) continue;
    if (!parsed.head.startsWith(JOURNAL_PREFIX)) {
      extraParts.set(parsed.head, Math.max(parsed.index, extraParts.get(parsed.head) ?? 0));
    } else if (!committed.has(parsed.head)) {
      orphans.push({ pk, sk });
    }
  }
  return { extraParts, journals, orphans };
}

/** The entries of a committed journal. */
export async function loadJournal(t: AuthTable, pk: string, journal: JournalRef): Promise<Entry[]> {
  const text = (await readValues(t, pk, [journal.sk])).get(journal.sk);
  if (text === undefined) {
    throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Auth-state journal vanished while rolling forward');
  }
  const entries: unknown = JSON.parse(text);
  const valid =
    Array.isArray(entries) &&
    entries.every(
      (entry) =>
        Array.isArray(entry) &&
        typeof entry[0] === 'string' &&
        (entry[1] === null || typeof entry[1] === 'string'),
    );
  if (!valid) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Auth-state journal is malformed');
  return entries as Entry[];
}

/** Deletes the parts of journals that were never committed. */
export async function deleteOrphans(t: AuthTable, orphans: readonly ItemKey[]): Promise<void> {
  await batchWrite(
    t,
    orphans.map((key) => ({ delete: key, bytes: 0 })),
  );
}
