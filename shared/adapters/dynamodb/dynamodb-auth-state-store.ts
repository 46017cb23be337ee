/**
 * AuthStateStore on DynamoDB, in the data table (`<prefix>data`, partition `AUTH#<sessionId>`): the aws mode's
 * auth state, since containers share no disk and a host adopting a session must resume it without a new QR.
 *
 * Writes: one item is one PutItem or DeleteItem, up to 100 items (4 MB) one TransactWriteItems, anything larger
 * goes through a redo journal (dynamodb-auth-journal.ts, which documents the commit point). Values above 350 KB
 * are split into part items (dynamodb-auth-layout.ts). A session's writes are serialised, and merged when they
 * queue up (dynamodb-auth-lane.ts), so they become durable in the order they resolve.
 *
 * Reads: BatchGetItem, strongly consistent, after the session's writes issued before them. The first call for a
 * session in this process (after a crash, on an adopting host, after a release) first rolls pending journals
 * forward and learns which values have parts, so rewrites can delete parts they no longer use in the same
 * transaction. Reads are meant to be cached by the CachingAuthStateStore decorator on the owning host.
 */
import { randomBytes } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { UnavailableError } from '#shared/errors/app-error.js';
import {
  type AuthKeyChange,
  type AuthStateSnapshot,
  type AuthStateStore,
  assertAuthSessionId,
  assertCredentialsDocument,
  assertKeyChanges,
  assertKeyName,
} from '#shared/ports/auth-state-store.port.js';
import {
  commitJournal,
  deleteJournal,
  deleteOrphans,
  type JournalRef,
  loadJournal,
  scanSession,
} from './dynamodb-auth-journal.js';
import { WriteLane } from './dynamodb-auth-lane.js';
import {
  authPk,
  CREDENTIALS_SK,
  type Entry,
  type EntryPlan,
  fitsOneTransaction,
  keyEntries,
  keySk,
  packTransactions,
  parseKeySk,
  planEntry,
} from './dynamodb-auth-layout.js';
import {
  type AuthTable,
  deletePartition,
  listHeads,
  mapLimit,
  readValues,
  writeAtomically,
} from './dynamodb-auth-requests.js';
import { documentClient, guard } from './dynamodb-support.js';
import { tableNames } from './dynamodb-tables.js';

const STORE = 'Auth-state store';
/** Transactions of one journal applied at once: fast for large batches without tripping throttling. */
const PARALLEL_TRANSACTIONS = 4;

/** Where the store lives: the caller's client (region, endpoint, credentials) and the table-name prefix. */
export interface DynamoDbAuthStateStoreOptions {
  client: DynamoDBClient;
  tablePrefix: string;
}

/** What this process keeps per session: no values (the cache decorator holds those), only write bookkeeping. */
interface SessionState {
  pk: string;
  lane: WriteLane;
  /** Parts beyond the head per multipart value, so a rewrite deletes the ones it no longer uses. */
  extraParts: Map<string, number>;
  /**
   * False until pending journals are rolled forward and `extraParts` is loaded, again while a journal is being
   * applied, and after a failure: the next read or write then recovers first.
   */
  known: boolean;
  /** Calls in progress; the state is dropped (release, wipe) only when none is. */
  users: number;
  dropWhenIdle: boolean;
}

/** Auth state of every session in the data table; the client belongs to the caller and is not destroyed. */
export class DynamoDbAuthStateStore implements AuthStateStore {
  private readonly t: AuthTable;
  private readonly sessions = new Map<string, SessionState>();
  /** Revisions mark the parts of one write; unique per process and write. */
  private readonly revPrefix = randomBytes(4).toString('hex');
  private revs = 0;
  private closed = false;

  constructor(options: DynamoDbAuthStateStoreOptions) {
    this.t = { doc: documentClient(options.client), table: tableNames(options.tablePrefix).data };
  }

  async readCredentials(sessionId: string): Promise<string | null> {
    this.check(sessionId);
    return this.using(sessionId, async (state) => {
      await this.readable(state);
      return (await readValues(this.t, state.pk, [CREDENTIALS_SK])).get(CREDENTIALS_SK) ?? null;
    });
  }

  async writeCredentials(sessionId: string, document: string): Promise<void> {
    this.check(sessionId);
    assertCredentialsDocument(document);
    await this.using(sessionId, (state) => state.lane.write([[CREDENTIALS_SK, document]]));
  }

  async hasCredentials(sessionId: string): Promise<boolean> {
    this.check(sessionId);
    return this.using(sessionId, async (state) => {
      await this.readable(state);
      const found = await this.t.doc.send(
        new GetCommand({
          TableName: this.t.table,
          Key: { pk: state.pk, sk: CREDENTIALS_SK },
          ConsistentRead: true,
          ProjectionExpression: '#sk',
          ExpressionAttributeNames: { '#sk': 'sk' },
        }),
      );
      return found.Item !== undefined;
    });
  }

  async readKeys(sessionId: string, category: string, ids: readonly string[]): Promise<Map<string, string>> {
    this.check(sessionId);
    assertKeyName(category, 'category');
    const found = new Map<string, string>();
    if (ids.length === 0) return found;
    return this.using(sessionId, async (state) => {
      const idsBySk = new Map(ids.map((id) => [keySk(category, id), id]));
      await this.readable(state);
      for (const [sk, value] of await readValues(this.t, state.pk, [...idsBySk.keys()])) {
        const id = idsBySk.get(sk);
        if (id !== undefined) found.set(id, value);
      }
      return found;
    });
  }

  async writeKeys(sessionId: string, changes: readonly AuthKeyChange[]): Promise<void> {
    this.check(sessionId);
    assertKeyChanges(changes);
    if (changes.length === 0) return;
    await this.using(sessionId, (state) => state.lane.write(keyEntries(changes)));
  }

  /**
   * Every value head of the partition (a keys-only Query), then their values as reads assemble them. A key whose
   * name was too long for a sort key is stored under its hash and cannot be named: the export refuses it rather
   * than move a device without it.
   */
  async readAll(sessionId: string): Promise<AuthStateSnapshot> {
    this.check(sessionId);
    return this.using(sessionId, async (state) => {
      await this.readable(state);
      const heads = (await listHeads(this.t, state.pk)).filter(
        (sk) => sk === CREDENTIALS_SK || sk.startsWith('KEY'),
      );
      const values = await readValues(this.t, state.pk, heads);
      const keys: AuthStateSnapshot['keys'] = [];
      for (const [sk, value] of values) {
        if (sk === CREDENTIALS_SK) continue;
        const name = parseKeySk(sk);
        if (name === null) throw new Error(`${STORE}: a key stored under a hashed name cannot be exported`);
        keys.push({ ...name, value });
      }
      return { credentials: values.get(CREDENTIALS_SK) ?? null, keys };
    });
  }

  async wipe(sessionId: string): Promise<void> {
    this.check(sessionId);
    await this.using(sessionId, async (state) => {
      state.dropWhenIdle = true;
      await state.lane.run(async () => {
        state.known = false;
        await deletePartition(this.t, state.pk);
        state.extraParts = new Map();
        state.known = true;
      });
    });
  }

  async release(sessionId: string): Promise<void> {
    this.check(sessionId);
    const state = this.sessions.get(sessionId);
    if (state === undefined) return;
    state.dropWhenIdle = true;
    // Writes already issued still land before the session counts as released.
    await this.using(sessionId, () => state.lane.idle());
  }

  async close(): Promise<void> {
    this.closed = true;
    const lanes = [...this.sessions.values()].map((state) => state.lane.idle());
    await Promise.all(lanes);
    this.sessions.clear();
  }

  /** Runs one call with the session's state, translating driver errors; drops the state after release or wipe. */
  private async using<T>(sessionId: string, call: (state: SessionState) => Promise<T>): Promise<T> {
    let state = this.sessions.get(sessionId);
    if (state === undefined) {
      const created: SessionState = {
        pk: authPk(sessionId),
        lane: new WriteLane((entries) => this.commit(created, entries)),
        extraParts: new Map(),
        known: false,
        users: 0,
        dropWhenIdle: false,
      };
      state = created;
      this.sessions.set(sessionId, state);
    }
    state.users += 1;
    try {
      return await guard(STORE, () => call(state));
    } finally {
      state.users -= 1;
      if (state.users === 0 && state.dropWhenIdle && this.sessions.get(sessionId) === state) {
        this.sessions.delete(sessionId);
      }
    }
  }

  /**
   * Waits until reads of the session are safe: the writes issued before the read have landed (as they would with a
   * local store, even when the caller did not await them), pending journals are rolled forward.
   */
  private async readable(state: SessionState): Promise<void> {
    await state.lane.settled();
    if (!state.known) await state.lane.run(() => this.recover(state));
  }

  /** Stores one batch of the lane (runs alone); any failure leaves the session to be recovered first. */
  private async commit(state: SessionState, entries: readonly Entry[]): Promise<void> {
    await this.recover(state);
    try {
      await this.store(state, entries);
    } catch (error) {
      state.known = false;
      throw error;
    }
  }

  private async store(state: SessionState, entries: readonly Entry[]): Promise<void> {
    const plans = this.plan(state, entries);
    const writes = plans.flatMap((plan) => plan.writes);
    if (fitsOneTransaction(writes)) {
      await writeAtomically(this.t, writes);
      this.record(state, entries, plans);
      return;
    }
    const journal = await commitJournal(this.t, state.pk, entries);
    // Committed: the batch is durable from here on and the write resolves even if applying it fails now. The
    // journal then stays pending (the session stays unknown) and the next call rolls it forward first.
    state.known = false;
    try {
      await this.applyJournal(state.pk, journal, plans);
    } catch {
      return;
    }
    this.record(state, entries, plans);
    state.known = true;
  }

  /**
   * Rolls pending journals forward and loads which values have parts, unless already done in this process.
   * Runs on the lane, so no write of this process overlaps it.
   */
  private async recover(state: SessionState): Promise<void> {
    if (state.known) return;
    const scan = await scanSession(this.t, state.pk);
    state.extraParts = scan.extraParts;
    for (const journal of scan.journals) {
      const entries = await loadJournal(this.t, state.pk, journal);
      const plans = this.plan(state, entries);
      await this.applyJournal(state.pk, journal, plans);
      this.record(state, entries, plans);
    }
    await deleteOrphans(this.t, scan.orphans);
    state.known = true;
  }

  /** Applies a committed journal in transactions, then deletes it, before the session's next write can start. */
  private async applyJournal(pk: string, journal: JournalRef, plans: EntryPlan[]): Promise<void> {
    const transactions = packTransactions(plans.map((plan) => plan.writes));
    await mapLimit(transactions, PARALLEL_TRANSACTIONS, (writes) => writeAtomically(this.t, writes));
    await deleteJournal(this.t, pk, journal);
  }

  private plan(state: SessionState, entries: readonly Entry[]): EntryPlan[] {
    const rev = `${this.revPrefix}${(this.revs++).toString(36)}`;
    return entries.map((entry) => planEntry(state.pk, entry, state.extraParts.get(entry[0]) ?? 0, rev));
  }

  /** Remembers the parts each entry left stored, once its write succeeded. */
  private record(state: SessionState, entries: readonly Entry[], plans: readonly EntryPlan[]): void {
    entries.forEach(([sk], i) => {
      const extra = plans[i]?.extraParts ?? 0;
      if (extra > 0) state.extraParts.set(sk, extra);
      else state.extraParts.delete(sk);
    });
  }

  private check(sessionId: string): void {
    if (this.closed) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', `${STORE} is unavailable`);
    assertAuthSessionId(sessionId);
  }
}
