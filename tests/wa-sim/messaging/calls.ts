/**
 * Voice and video calls from simulated contacts to linked accounts. There is no media: the server only
 * carries the signalling a client sees. A contact's call sends every connected companion of the account a
 * `<call><offer call-id call-creator>` stanza (Baileys: `ev 'call'` with status `offer`, and an `<ack
 * class=call>` back); the client's `<call><reject>` (Baileys `rejectCall`, a query awaiting a reply with its
 * id) marks the call rejected and is answered with `<ack class=call type=reject>`. Calls keep ringing until a
 * companion rejects them.
 */
import { randomBytes } from 'node:crypto';
import { type Account, linkedCompanions } from '#tests/wa-sim/accounts/accounts.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { type BinaryNode, firstChild, makeNode, pnJid, unixNow } from '#tests/wa-sim/transport/binary.js';
import type { SimConnection } from '#tests/wa-sim/transport/connection.js';

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

/** A call id in the form WhatsApp uses (32 uppercase hex digits). */
function newCallId(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

/** The offer a companion receives: the caller's jid, the call id and creator, the media it proposes. */
function offerStanza(
  contact: Contact,
  callId: string,
  stanzaId: string,
  timestamp: number,
  video: boolean,
): BinaryNode {
  const caller = pnJid(contact.number);
  const media: BinaryNode[] = [
    makeNode('audio', { enc: 'opus', rate: '16000' }),
    makeNode('audio', { enc: 'opus', rate: '8000' }),
  ];
  // Baileys tells video calls by the presence of a <video> child.
  if (video) media.push(makeNode('video', { enc: 'vp8', dec: 'vp8', orientation: '0' }));
  return makeNode(
    'call',
    { from: caller, id: stanzaId, t: String(timestamp), notify: contact.name, platform: 'android' },
    [
      makeNode('offer', { 'call-id': callId, 'call-creator': caller }, [
        ...media,
        makeNode('net', { medium: '3' }),
        makeNode('encopt', { keygen: '2' }),
      ]),
    ],
  );
}

/** `contact` calls `account`: every connected companion gets the offer. Answers the recorded call. */
export function contactCall(sim: Simulator, contact: Contact, account: Account, video: boolean): SimCall {
  const callId = newCallId();
  const timestamp = unixNow();
  const stanzaIds: string[] = [];
  for (const device of linkedCompanions(account)) {
    if (!device.connection?.isOpen) continue;
    const stanzaId = sim.newMessageId();
    device.connection.send(offerStanza(contact, callId, stanzaId, timestamp, video));
    stanzaIds.push(stanzaId);
  }
  const call: SimCall = {
    callId,
    from: contact.number,
    to: account.phone,
    video,
    status: 'ringing',
    offeredAt: new Date(timestamp * 1000).toISOString(),
    devices: stanzaIds.length,
    acks: 0,
  };
  sim.calls.add(call, stanzaIds);
  sim.log.info(`${contact.number} calls ${account.phone} (${callId}, ${stanzaIds.length} devices)`);
  return call;
}

/** The client's `<ack class=call>` for an offer it handled. */
export function handleCallAck(sim: Simulator, node: BinaryNode): void {
  const call = sim.calls.byOfferStanza(node.attrs.id);
  if (call) call.acks++;
}

/**
 * A `<call>` from a client. `<reject call-id>` rejects a ringing call of the device's account; every call
 * stanza is answered with an ack carrying its id, which is what Baileys' query waits for.
 */
export function handleClientCall(sim: Simulator, connection: SimConnection, node: BinaryNode): void {
  const device = connection.device;
  if (!device) return;
  const action = firstChild(node);
  const ack = makeNode('ack', {
    id: node.attrs.id,
    class: 'call',
    type: action?.tag,
    from: node.attrs.to,
    t: String(unixNow()),
  });
  if (action?.tag !== 'reject') {
    sim.warnOnce(`call:${action?.tag}`, `unhandled <call><${action?.tag ?? ''}>; acked only`);
    connection.send(ack);
    return;
  }
  const call = sim.calls.get(action.attrs['call-id']);
  if (!call || call.to !== device.account.phone) {
    sim.log.warn(`reject of unknown call ${action.attrs['call-id'] ?? ''} from ${device.account.phone}`);
  } else if (call.status === 'ringing') {
    call.status = 'rejected';
    call.rejectedAt = new Date().toISOString();
    call.rejectedBy = pnJid(device.account.phone, device.deviceId);
    sim.log.info(`${call.rejectedBy} rejected call ${call.callId} from ${call.from}`);
  }
  connection.send(ack);
}
