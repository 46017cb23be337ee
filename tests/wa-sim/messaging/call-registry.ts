/** The calls contacts placed, as the server remembers them (`calls.ts` places, ends and answers them). */
import type { CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';

/**
 * Where a call stands: `ringing` until a companion rejects it (`rejected`), the caller hangs up (`hungUp`), nobody
 * answers in time (`timedOut`) or the account's phone answers it (`answered`); an answered call the caller then
 * hangs up is `ended`.
 */
export type CallStatus = 'ringing' | 'rejected' | 'hungUp' | 'timedOut' | 'answered' | 'ended';

/** One call a contact placed, and what the account's companions did with it. */
export interface SimCall {
  readonly callId: string;
  /** The caller's (contact's) number. */
  readonly from: string;
  /** The called account's phone number. */
  readonly to: string;
  readonly video: boolean;
  status: CallStatus;
  /** ISO time of the offer. */
  readonly offeredAt: string;
  /** Companions the offer was sent to (connected ones only: a call does not wait for an offline device). */
  readonly devices: number;
  /** `<ack class=call>` the companions sent for the offer. */
  acks: number;
  /** ISO time and device jid of the rejection, once rejected. */
  rejectedAt?: string;
  rejectedBy?: string;
  /** ISO time the phone answered it. */
  answeredAt?: string;
  /** ISO time it was hung up or timed out. */
  endedAt?: string;
}

/** Calls kept in all; the oldest are forgotten past this, so load runs stay bounded. */
const CALL_LIMIT = 10_000;

/** Every call, by id; offer stanza ids map to their call so the client's acks can be counted. */
export class CallRegistry {
  private readonly byId = new Map<
    string,
    { call: SimCall; stanzaIds: readonly string[]; rang: readonly CompanionDevice[] }
  >();
  private readonly byStanzaId = new Map<string, SimCall>();

  /** Records a new call, the stanza ids its offers carry and the companions they went to. */
  add(call: SimCall, stanzaIds: readonly string[], rang: readonly CompanionDevice[]): void {
    this.byId.set(call.callId, { call, stanzaIds, rang });
    for (const id of stanzaIds) this.byStanzaId.set(id, call);
    if (this.byId.size <= CALL_LIMIT) return;
    const [oldestId, oldest] = this.byId.entries().next().value ?? [];
    if (oldestId === undefined || !oldest) return;
    this.byId.delete(oldestId);
    for (const id of oldest.stanzaIds) this.byStanzaId.delete(id);
  }

  /** The call with this call id. */
  get(callId: string | undefined): SimCall | undefined {
    return callId ? this.byId.get(callId)?.call : undefined;
  }

  /** The companions call `callId` rang (those its ending is told to). */
  rangFor(callId: string): readonly CompanionDevice[] {
    return this.byId.get(callId)?.rang ?? [];
  }

  /** The call an offer stanza id belongs to. */
  byOfferStanza(id: string | undefined): SimCall | undefined {
    return id ? this.byStanzaId.get(id) : undefined;
  }

  /** The calls `number` placed, oldest first. */
  from(number: string): SimCall[] {
    return [...this.byId.values()].map((entry) => entry.call).filter((call) => call.from === number);
  }
}
