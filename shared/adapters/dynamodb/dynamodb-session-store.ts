/**
 * Sessions in DynamoDB. Every session lives in the `SESSIONS` partition (consistent list queries); a name-lock
 * item written in the same transaction keeps names unique. Compare-and-set updates and lease writes carry their
 * conditions (status, owner, lease) in a ConditionExpression, so of two concurrent writers exactly one passes.
 */
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { patchFields } from '#shared/adapters/patch-support.js';
import type { Page } from '#shared/domain/common.js';
import type { Session, SessionStatus } from '#shared/domain/session.js';
import { ConflictError } from '#shared/errors/app-error.js';
import {
  type LeaseClaim,
  SESSION_FIELDS,
  SESSION_PATCH_FIELDS,
  type SessionFilter,
  type SessionPatch,
  type SessionStore,
  type SessionUpdateResult,
  type SessionWriteOptions,
  updateConditionsHold,
} from '#shared/ports/session-store.port.js';
import { outboxItem, outboxTaken } from './dynamodb-event-outbox.js';
import {
  claimWrite,
  conditionClauses,
  type LeaseWrite,
  releaseWrite,
  renewWrite,
  sendConditional,
} from './dynamodb-session-lease.js';
import {
  cancellationCodes,
  copy,
  createWithLock,
  failedAt,
  getItem,
  guard,
  type Item,
  putNew,
  queryPartition,
  setExpression,
} from './dynamodb-support.js';

const STORE = 'Data store';
const PARTITION = 'SESSIONS';
const MAX_ATTEMPTS = 5;

const sessionKey = (id: string) => ({ pk: PARTITION, sk: `SESSION#${id}` });
const nameKey = (name: string) => ({ pk: `SESSIONNAME#${name}`, sk: 'LOCK' });
const nameTaken = (name: string) =>
  new ConflictError('SESSION_NAME_EXISTS', `Session name '${name}' already exists`);

/** The session fields of an item, without the key attributes. */
function toSession(item: Item): Session {
  const session: Record<string, unknown> = {};
  for (const field of SESSION_FIELDS) session[field] = item[field] ?? null;
  const config = session.config;
  session.config = config !== null && typeof config === 'object' && !Array.isArray(config) ? config : {};
  return session as Session;
}

/** SessionStore on the data table. */
export class DynamoDbSessionStore implements SessionStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  create(session: Session): Promise<void> {
    return guard(STORE, () =>
      createWithLock(
        this.doc,
        this.table,
        {
          item: { ...copy(session), ...sessionKey(session.id) },
          lock: { ...nameKey(session.name), sessionId: session.id },
        },
        {
          item: () => new ConflictError('CONFLICT', 'A session with this id already exists'),
          lock: () => nameTaken(session.name),
        },
      ),
    );
  }

  findById(id: string): Promise<Session | null> {
    return guard(STORE, () => this.read(id));
  }

  list(filter: SessionFilter, page: Page): Promise<Session[]> {
    return guard(STORE, async () => {
      const newestFirst = (await this.matching(filter)).reverse();
      return newestFirst.slice(page.offset, page.offset + page.limit);
    });
  }

  listByStatus(statuses: readonly SessionStatus[]): Promise<Session[]> {
    return guard(STORE, async () => {
      if (statuses.length === 0) return [];
      return (await this.all()).filter((session) => statuses.includes(session.status));
    });
  }

  countByStatus(filter: SessionFilter): Promise<Partial<Record<SessionStatus, number>>> {
    return guard(STORE, async () => {
      const counts: Partial<Record<SessionStatus, number>> = {};
      for (const session of await this.matching(filter)) {
        counts[session.status] = (counts[session.status] ?? 0) + 1;
      }
      return counts;
    });
  }

  update(id: string, patch: SessionPatch, options: SessionWriteOptions = {}): Promise<SessionUpdateResult> {
    return guard(STORE, async () => {
      for (let attempt = 1; ; attempt++) {
        const current = await this.read(id);
        if (!current) return { outcome: 'not_found' };
        if (!updateConditionsHold(current, options)) return { outcome: 'conflict', session: current };
        const result = await this.tryUpdate(current, patch, options);
        // A lost race on the name or a condition re-reads: the next round answers conflict or not_found truthfully.
        if (result || attempt >= MAX_ATTEMPTS) {
          if (result) return { outcome: 'updated', session: result };
          throw new ConflictError('CONFLICT', 'The session changed concurrently; retry');
        }
      }
    });
  }

  claimLease(
    id: string,
    claim: LeaseClaim,
    options: { expectStatus?: readonly SessionStatus[] } = {},
  ): Promise<SessionUpdateResult> {
    return this.leaseWrite(id, claimWrite(claim, options.expectStatus));
  }

  renewLease(id: string, claim: LeaseClaim): Promise<SessionUpdateResult> {
    return this.leaseWrite(id, renewWrite(claim));
  }

  releaseLease(id: string, nodeId: string): Promise<SessionUpdateResult> {
    return this.leaseWrite(id, releaseWrite(nodeId));
  }

  delete(id: string): Promise<boolean> {
    return guard(STORE, async () => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const current = await this.read(id);
        if (!current) return false;
        try {
          await this.doc.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  Delete: {
                    TableName: this.table,
                    Key: sessionKey(id),
                    ConditionExpression: '#name = :name',
                    ExpressionAttributeNames: { '#name': 'name' },
                    ExpressionAttributeValues: { ':name': current.name },
                  },
                },
                { Delete: { TableName: this.table, Key: nameKey(current.name) } },
              ],
            }),
          );
          return true;
        } catch (error) {
          if (!failedAt(cancellationCodes(error), 0)) throw error;
        }
      }
      throw new ConflictError('CONFLICT', 'The session changed concurrently; retry');
    });
  }

  /** One conditional lease write; when its condition failed, the row as it stands says why. */
  private leaseWrite(id: string, write: LeaseWrite): Promise<SessionUpdateResult> {
    return guard(STORE, async () => {
      const written = await sendConditional(this.doc, {
        TableName: this.table,
        Key: sessionKey(id),
        ...write,
      });
      if (written) return { outcome: 'updated', session: toSession(written) };
      const current = await this.read(id);
      return current ? { outcome: 'conflict', session: current } : { outcome: 'not_found' };
    });
  }

  private async read(id: string): Promise<Session | null> {
    const item = await getItem(this.doc, this.table, sessionKey(id));
    return item ? toSession(item) : null;
  }

  /** Every session, oldest first (createdAt, then id). */
  private async all(): Promise<Session[]> {
    const items = await queryPartition(this.doc, this.table, PARTITION);
    const sessions = items.map(toSession);
    return sessions.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  private async matching(filter: SessionFilter): Promise<Session[]> {
    if (filter.ids?.length === 0) return [];
    const ids = filter.ids ? new Set(filter.ids) : null;
    return (await this.all()).filter(
      (session) =>
        (!ids || ids.has(session.id)) && (filter.name === undefined || session.name === filter.name),
    );
  }

  /**
   * One conditional write of `patch` over `current`, with the name lock moved on a rename and the outbox entries,
   * all in one transaction when there is more than the row to write; null when a condition failed (raced).
   */
  private async tryUpdate(
    current: Session,
    patch: SessionPatch,
    options: SessionWriteOptions,
  ): Promise<Session | null> {
    const changes = patchFields(patch, SESSION_PATCH_FIELDS);
    const entries = options.outbox ?? [];
    if (Object.keys(changes).length === 0 && entries.length === 0) return current;
    // Entries with no field to change still write the row (its conditions must hold at the entries' write).
    const set = setExpression(Object.keys(changes).length > 0 ? changes : { updatedAt: current.updatedAt });
    const names: Record<string, string> = { ...set.ExpressionAttributeNames, '#name': 'name' };
    const values: Record<string, unknown> = { ...set.ExpressionAttributeValues, ':oldName': current.name };
    const condition = [
      'attribute_exists(pk) AND #name = :oldName',
      ...conditionClauses(options, names, values),
    ];
    const update = {
      TableName: this.table,
      Key: sessionKey(current.id),
      UpdateExpression: set.UpdateExpression,
      ConditionExpression: condition.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
    const newName = patch.name;
    const rename =
      newName === undefined || newName === current.name
        ? []
        : [
            putNew(this.table, { ...nameKey(newName), sessionId: current.id }),
            { Delete: { TableName: this.table, Key: nameKey(current.name) } },
          ];
    if (rename.length === 0 && entries.length === 0) {
      const written = await sendConditional(this.doc, update);
      return written ? toSession(written) : null;
    }
    const events = entries.map((entry) => putNew(this.table, outboxItem(entry)));
    try {
      await this.doc.send(
        new TransactWriteCommand({ TransactItems: [{ Update: update }, ...rename, ...events] }),
      );
    } catch (error) {
      const codes = cancellationCodes(error);
      if (rename.length > 0 && failedAt(codes, 1)) throw nameTaken(newName ?? '');
      if (events.some((_, index) => failedAt(codes, 1 + rename.length + index))) throw outboxTaken();
      if (failedAt(codes, 0)) return null;
      throw error;
    }
    return this.read(current.id);
  }
}
