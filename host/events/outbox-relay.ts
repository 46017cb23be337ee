/**
 * The outbox relay: hands each stored event to the durable consumers (webhook delivery, inline or through the
 * webhook queue; autoreply) and removes its outbox entry once every consumer has settled it. An entry whose
 * consumers failed stays, and so does every entry of a process that died mid-way: a sweep claims entries that
 * have waited longer than `sweepAfterMs` and relays them again (at startup and every `sweepIntervalMs`). Delivery
 * is therefore at least once; receivers deduplicate on the idempotency key, derived from the stored event.
 *
 * The outbox is also the buffer: at most `maxInFlight` entries are with the consumers at once. An entry stored while
 * that many are out stays in the outbox, and once half of them have settled a catch-up claims the waiting entries
 * (oldest first) and relays them. A burst beyond what the receivers take is delivered late, never refused.
 */
import { randomUUID } from 'node:crypto';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { EventOutbox, OutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { Logger } from '#shared/ports/logger.port.js';

/** Takes one event over for good: resolves once it is delivered, queued or recorded as failed. */
export type DurableConsumer = (event: GatewayEvent) => Promise<void>;

export interface OutboxRelayDeps {
  outbox: EventOutbox;
  clock: Clock;
  logger: Logger;
}

export interface OutboxRelayOptions {
  /** How long an entry waits before a sweep relays it again (its relay died, or its consumers failed). */
  sweepAfterMs: number;
  sweepIntervalMs: number;
  /** Entries claimed per sweep round. */
  sweepBatch: number;
  /** Entries with the consumers at once; more wait in the outbox (a delivery line never overflows). */
  maxInFlight: number;
}

/**
 * How old a waiting entry must be before a catch-up takes it: entries younger than this may be another host's,
 * still being relayed by it (aws mode), and a catch-up must not race it for them.
 */
const CATCH_UP_AFTER_MS = 1000;

/**
 * How long a settled entry waits for others before their removal is written: a steady stream of events shares one
 * write instead of paying one each. A crash within it only means those entries are relayed once more (at least
 * once, as always).
 */
const REMOVAL_LINGER_MS = 20;

export class OutboxRelay {
  private readonly consumers: DurableConsumer[] = [];
  /** Entries being relayed by this process, so a sweep never relays one a second time meanwhile. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Settled entries not yet removed: removed together, one store call per REMOVAL_LINGER_MS. */
  private settled: string[] = [];
  private removalTimer: NodeJS.Timeout | null = null;
  /** Settled entries whose removal is not written yet: a claim may still find them, and must not relay them. */
  private readonly removing = new Set<string>();
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  /** Entries were left in the outbox because `maxInFlight` were out: a catch-up is due once room frees up. */
  private backlogged = false;
  private catchingUp: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly deps: OutboxRelayDeps,
    private readonly options: OutboxRelayOptions,
  ) {}

  /** Adds a consumer; every entry relayed from now on goes to it too. */
  addConsumer(consumer: DurableConsumer): void {
    this.consumers.push(consumer);
  }

  /** Relays a stored entry now (it is written already; a crash before it settles leaves it to the sweep). */
  relay(entry: OutboxEntry): void {
    if (this.inFlight.has(entry.id)) return;
    if (this.inFlight.size >= this.options.maxInFlight) {
      this.backlogged = true;
      return;
    }
    const work = this.consume(entry.event).then((ok) => {
      if (ok) this.markSettled(entry.id);
    });
    this.inFlight.set(entry.id, work);
    void work.finally(() => {
      this.inFlight.delete(entry.id);
      this.resumeIfRoom();
    });
  }

  /** Starts a catch-up once half the in-flight room is free again, if entries were left waiting. */
  private resumeIfRoom(): void {
    if (this.closed || !this.backlogged || this.catchingUp) return;
    if (this.inFlight.size > this.options.maxInFlight / 2) return;
    this.backlogged = false;
    this.catchingUp = this.claimAndRelay(CATCH_UP_AFTER_MS).finally(() => {
      this.catchingUp = null;
      this.resumeIfRoom();
    });
  }

  /** Delivers an event the outbox could not store (its store failed): at most once, never lost silently. */
  relayUnstored(event: GatewayEvent): void {
    const work = this.consume(event).then(() => undefined);
    const id = `unstored:${randomUUID()}`;
    this.inFlight.set(id, work);
    void work.finally(() => this.inFlight.delete(id));
  }

  /** Sweeps once now, then every `sweepIntervalMs`. */
  start(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.options.sweepIntervalMs);
    this.timer.unref();
  }

  /** Claims the entries that waited too long and relays them; resolves when they are handed over. */
  sweep(): Promise<void> {
    this.sweeping ??= this.claimAndRelay(this.options.sweepAfterMs).finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  /** Stops sweeping and waits until every entry handed over so far has settled and been removed. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // Entries still waiting in the outbox stay there for the next start's sweep.
    this.closed = true;
    await this.sweeping;
    await this.catchingUp;
    await this.drain();
  }

  /** Resolves once every entry relayed so far has settled and its removal is written. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
    await this.flush();
  }

  /**
   * Claims entries waiting longer than `afterMs`, as many as there is room for, and relays them; round after round
   * while rounds come back full. Entries left for want of room are the next catch-up's.
   */
  private async claimAndRelay(afterMs: number): Promise<void> {
    try {
      for (;;) {
        const room = Math.min(this.options.sweepBatch, this.options.maxInFlight - this.inFlight.size);
        if (room <= 0) {
          this.backlogged = true;
          return;
        }
        const now = this.deps.clock.now();
        const claimed = await this.deps.outbox.claimStale({
          olderThan: new Date(now.getTime() - afterMs),
          now,
          limit: room,
        });
        const fresh = claimed.filter((entry) => !this.inFlight.has(entry.id) && !this.removing.has(entry.id));
        if (fresh.length > 0)
          this.deps.logger.info({ entries: fresh.length }, 'outbox: relaying waiting events');
        for (const entry of fresh) this.relay(entry);
        if (claimed.length < room) return;
      }
    } catch (error) {
      this.deps.logger.error({ err: error }, 'outbox sweep failed; the next one retries');
    }
  }

  /** True when every consumer settled the event. */
  private async consume(event: GatewayEvent): Promise<boolean> {
    const results = await Promise.allSettled(this.consumers.map((consumer) => consumer(event)));
    const failed = results.filter((result) => result.status === 'rejected');
    for (const failure of failed) {
      this.deps.logger.error(
        { err: failure.reason, event: event.event, sessionId: event.sessionId },
        'outbox: a consumer failed; the event stays for the sweep',
      );
    }
    return failed.length === 0;
  }

  private markSettled(id: string): void {
    this.settled.push(id);
    this.removing.add(id);
    this.removalTimer ??= setTimeout(() => void this.flush(), REMOVAL_LINGER_MS);
  }

  private async flush(): Promise<void> {
    if (this.removalTimer) clearTimeout(this.removalTimer);
    this.removalTimer = null;
    await this.flushing;
    if (this.settled.length === 0) return;
    const ids = this.settled;
    this.settled = [];
    this.flushing = this.deps.outbox
      .complete(ids)
      .catch((error: unknown) => {
        // Left in the outbox, they are relayed again by a sweep: a duplicate, which receivers deduplicate.
        this.deps.logger.error(
          { err: error, entries: ids.length },
          'outbox: removing settled entries failed',
        );
      })
      .finally(() => {
        for (const id of ids) this.removing.delete(id);
      });
    await this.flushing;
    this.flushing = null;
  }
}
