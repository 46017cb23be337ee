/** The calls contacts placed, as the server remembers them (`calls.ts` places and answers them). */
/** Where a call stands. */
export type CallStatus = 'ringing' | 'rejected';

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
}

/** Calls kept in all; the oldest are forgotten past this, so load runs stay bounded. */
const CALL_LIMIT = 10_000;

/** Every call, by id; offer stanza ids map to their call so the client's acks can be counted. */
export class CallRegistry {
  private readonly byId = new Map<string, { call: SimCall; stanzaIds: readonly string[] }>();
  private readonly byStanzaId = new Map<string, SimCall>();

  /** Records a new call and the stanza ids its offers carry. */
  add(call: SimCall, stanzaIds: readonly string[]): void {
    this.byId.set(call.callId, { call, stanzaIds });
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

  /** The call an offer stanza id belongs to. */
  byOfferStanza(id: string | undefined): SimCall | undefined {
    return id ? this.byStanzaId.get(id) : undefined;
  }

  /** The calls `number` placed, oldest first. */
  from(number: string): SimCall[] {
    return [...this.byId.values()].map((entry) => entry.call).filter((call) => call.from === number);
  }
}
