/**
 * Voice and video calls from simulated contacts to linked accounts. There is no media: the server only
 * carries the signalling a client sees. A contact's call sends every connected companion of the account a
 * `<call><offer call-id call-creator>` stanza (Baileys: `ev 'call'` with status `offer`, and an `<ack
 * class=call>` back); the client's `<call><reject>` (Baileys `rejectCall`, a query awaiting a reply with its
 * id) marks the call rejected and is answered with `<ack class=call type=reject>`. A call also ends when the caller
 * hangs up, nobody answers in time, or the account's phone answers it (`endContactCall`): the companions it rang
 * get `<terminate>` (with `reason=timeout` for the timeout) or `<accept>`.
 */
import { randomBytes } from 'node:crypto';
import {
  type Account,
  type ClientConnection,
  type CompanionDevice,
  linkedCompanions,
} from '#tests/wa-sim/accounts/accounts.js';
import { isBlocked } from '#tests/wa-sim/accounts/blocklist.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { conflict } from '#tests/wa-sim/support/errors.js';
import { type BinaryNode, firstChild, makeNode, pnJid, unixNow } from '#tests/wa-sim/transport/binary.js';
import type { CallStatus, SimCall } from './call-registry.js';

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
  const rang: CompanionDevice[] = [];
  // A blocked caller rings no one.
  const callees = isBlocked(account, contact.lid) ? [] : linkedCompanions(account);
  for (const device of callees) {
    if (!device.connection?.isOpen) continue;
    const stanzaId = sim.newMessageId();
    device.connection.send(offerStanza(contact, callId, stanzaId, timestamp, video));
    stanzaIds.push(stanzaId);
    rang.push(device);
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
  sim.calls.add(call, stanzaIds, rang);
  sim.log.info(`${contact.number} calls ${account.phone} (${callId}, ${stanzaIds.length} devices)`);
  return call;
}

/** How a ringing call ends other than by a companion's reject. */
export type CallEnding = 'hangup' | 'timeout' | 'answered';

const ENDED: Record<CallEnding, CallStatus> = { hangup: 'hungUp', timeout: 'timedOut', answered: 'answered' };

/**
 * Ends `call` the way `how` says and tells every companion it rang that is still connected: the caller hanging up
 * or nobody answering sends `<terminate>` (Baileys `ev 'call'` status `terminate`, or `timeout` for
 * `reason=timeout`), the account's phone answering sends `<accept>` (status `accept`). Only a ringing call can end
 * so, except that the caller may hang up a call the phone answered (`ended`); anything else is a 409. Answers how
 * many companions were told.
 */
export function endContactCall(sim: Simulator, call: SimCall, how: CallEnding): number {
  const hangingUpAnswered = how === 'hangup' && call.status === 'answered';
  if (call.status !== 'ringing' && !hangingUpAnswered) {
    throw conflict(`call ${call.callId} is ${call.status}, not ringing: it cannot end by ${how}`);
  }
  const now = new Date().toISOString();
  call.status = hangingUpAnswered ? 'ended' : ENDED[how];
  if (how === 'answered') call.answeredAt = now;
  else call.endedAt = now;
  const caller = pnJid(call.from);
  const attrs = {
    'call-id': call.callId,
    'call-creator': caller,
    reason: how === 'timeout' ? 'timeout' : undefined,
  };
  const ending = makeNode(how === 'answered' ? 'accept' : 'terminate', attrs);
  let told = 0;
  for (const device of sim.calls.rangFor(call.callId)) {
    if (!device.connection?.isOpen) continue;
    const stanza = makeNode('call', { from: caller, id: sim.newMessageId(), t: String(unixNow()) }, [ending]);
    device.connection.send(stanza);
    told++;
  }
  sim.log.info(`call ${call.callId} from ${call.from}: ${call.status} (${told} devices told)`);
  return told;
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
export function handleClientCall(sim: Simulator, connection: ClientConnection, node: BinaryNode): void {
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
