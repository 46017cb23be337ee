/**
 * One session's write lane in the DynamoDB auth-state store. Writes, recoveries and wipes of a session run one at
 * a time in call order, so its writes become durable in the order they resolve (the port's ordering promise),
 * which a remote store does not give by itself: two requests in flight may land in either order.
 *
 * Group commit: writes that queued up while another ran are merged into one batch (the last change of a key
 * winning, as within a batch) and committed together, all-or-nothing, in one request where it fits. Each of them
 * then resolves or rejects with that one commit, so every one is still all-or-nothing and ordered, and a session
 * writing faster than one round trip per write pays one request per round trip instead of one per write.
 */
import { type Entry, mergeEntries, TRANSACTION_MAX_ITEMS } from './dynamodb-auth-layout.js';

/**
 * Merging stops at a transaction's item count and well below its byte size (3 bytes per UTF-16 unit at worst),
 * so merging small writes never pushes them from one transaction onto the slower journal path.
 */
const MERGE_MAX_ENTRIES = TRANSACTION_MAX_ITEMS;
const MERGE_MAX_CHARS = 1_000_000;

interface Settle {
  resolve(): void;
  reject(error: unknown): void;
}

type Job =
  | ({ kind: 'write'; entries: readonly Entry[]; chars: number } & Settle)
  | ({ kind: 'task'; run: () => Promise<void> } & Settle);

const charsOf = (entries: readonly Entry[]): number =>
  entries.reduce((sum, [sk, value]) => sum + sk.length + (value?.length ?? 0), 0);

/** A serial queue of writes (merged when they queue up) and exclusive tasks. */
export class WriteLane {
  private readonly jobs: Job[] = [];
  private draining: Promise<void> | null = null;
  /** Settles with the job queued last; never rejects. */
  private last: Promise<void> = Promise.resolve();

  /** `commit` stores one (possibly merged) batch; it runs alone, never overlapping another job. */
  constructor(private readonly commit: (entries: readonly Entry[]) => Promise<void>) {}

  /** Queues a batch; resolves once it is committed. */
  write(entries: readonly Entry[]): Promise<void> {
    return this.track(
      new Promise((resolve, reject) => {
        this.jobs.push({ kind: 'write', entries, chars: charsOf(entries), resolve, reject });
        this.kick();
      }),
    );
  }

  /** Queues a task that runs alone, after every job queued before it. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return this.track(
      new Promise((resolve, reject) => {
        const job: Job = {
          kind: 'task',
          run: async () => resolve(await task()),
          resolve: () => undefined,
          reject,
        };
        this.jobs.push(job);
        this.kick();
      }),
    );
  }

  /**
   * Resolves once every job queued so far has settled, whatever later jobs do: a read waits for the writes issued
   * before it (read-your-writes even for a write nobody awaited), never for the ones issued after it.
   */
  settled(): Promise<void> {
    return this.last;
  }

  /** Resolves once every job queued so far (and any queued meanwhile) has settled. */
  async idle(): Promise<void> {
    while (this.draining !== null) await this.draining;
  }

  private track<T>(job: Promise<T>): Promise<T> {
    this.last = job.then(
      () => undefined,
      () => undefined,
    );
    return job;
  }

  private kick(): void {
    if (this.draining !== null) return;
    this.draining = (async () => {
      // Yield once first: writes issued in the same tick (Baileys sets key types in parallel) merge, and
      // `draining` is assigned before the loop can finish and clear it.
      await null;
      while (this.jobs.length > 0) await this.next();
      this.draining = null;
    })();
  }

  private async next(): Promise<void> {
    const first = this.jobs.shift();
    if (first === undefined) return;
    if (first.kind === 'task') {
      await first.run().then(first.resolve, first.reject);
      return;
    }
    const merged = [first];
    let entries = first.entries.length;
    let chars = first.chars;
    for (let job = this.jobs[0]; job?.kind === 'write'; job = this.jobs[0]) {
      if (entries + job.entries.length > MERGE_MAX_ENTRIES || chars + job.chars > MERGE_MAX_CHARS) break;
      entries += job.entries.length;
      chars += job.chars;
      merged.push(job);
      this.jobs.shift();
    }
    try {
      await this.commit(merged.length === 1 ? first.entries : mergeEntries(merged.map((job) => job.entries)));
      for (const job of merged) job.resolve();
    } catch (error) {
      for (const job of merged) job.reject(error);
    }
  }
}
