/**
 * How many sessions connect at once on this host. A restart resumes every session, and a network outage drops them
 * all together: unbounded, a thousand handshakes (a Noise exchange, two certificate signatures, the first queries)
 * would queue on the event loop at once, holding the API's answers behind them, and would reach the network as one
 * burst. A connecting session holds a slot from the start of its connection until its engine reports how it went (a
 * QR, ready, a disconnect or a failure), or `holdMs` at most; the others wait their turn, first come first served.
 */
import type { EngineEventHandlers } from '#host/engines/engine-events.js';

/** Gives a slot back; calling it again does nothing. */
export type SlotRelease = () => void;

export class ConnectSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly limit: number,
    private readonly holdMs: number,
  ) {
    this.free = limit;
  }

  /** Sessions connecting now. */
  get connecting(): number {
    return this.limit - this.free;
  }

  /** Sessions waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves once a slot is this caller's; the release also runs by itself after `holdMs`. */
  async acquire(): Promise<SlotRelease> {
    if (this.free > 0) {
      this.free--;
    } else {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      const next = this.waiting.shift();
      // The slot passes straight to the next in line, so a release never lets two through.
      if (next) next();
      else this.free++;
    };
    const timer = setTimeout(release, this.holdMs);
    timer.unref?.();
    return release;
  }
}

/** `handlers`, giving the slot back at the first report of how the connection went. */
export function releasingSlot(handlers: EngineEventHandlers, release: SlotRelease): EngineEventHandlers {
  return {
    ...handlers,
    qr: (data) => {
      release();
      handlers.qr(data);
    },
    ready: (data) => {
      release();
      handlers.ready(data);
    },
    disconnected: (data) => {
      release();
      handlers.disconnected(data);
    },
    failed: (data) => {
      release();
      handlers.failed(data);
    },
  };
}
