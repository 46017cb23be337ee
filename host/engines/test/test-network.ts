/**
 * A deterministic stand-in for the WhatsApp network, for tests and for trying the API without a phone: it keeps
 * the "linked devices" (credentials) per session and lets a test act as the phone and as the network.
 */

import type { PresenceParticipant } from '#shared/domain/chat-presence.js';
import type {
  EngineEmitter,
  InboundChange,
  InboundMessage,
  InboundStatus,
  IncomingCall,
  LinkedIdentity,
  OutgoingStatus,
  RestrictionNotice,
} from '../engine-events.js';
import type { OutgoingMessage } from '../ports/messaging.port.js';
import { changeOf, type PhoneChat, TestAccountChats } from './test-chats.js';
import { TestDirectory } from './test-contacts.js';
import { TestGroups } from './test-groups.js';
import { TestLabels } from './test-labels.js';
import { reissueSubscriptions, TestPresence } from './test-presence.js';
import { TestStatuses } from './test-statuses.js';

export type LogoutBehaviour = 'ok' | 'hang' | 'fail';
export type StopBehaviour = 'ok' | 'hang';

/** A test engine's live connection, as the network reaches it. */
export interface NetworkConnection {
  sessionId: string;
  /** Reports to the engine's session runner (nothing once the engine closed). */
  emit: EngineEmitter['emit'];
  /** Hands a message to the engine's session runner; resolves once it is stored (at once when the engine closed). */
  receive: EngineEmitter['receive'];
  /** Hands a change of a message to the engine's session runner, the same way. */
  receiveChange: EngineEmitter['receiveChange'];
  /** Hands a contact's status update to the engine's session runner, the same way. */
  receiveStatus: EngineEmitter['receiveStatus'];
  /** The network ends the connection; `loggedOut` when it also voided the credentials. */
  drop(loggedOut: boolean): void;
}

/** A call placed to a session's account, and what its device did with it. */
export interface TestCall {
  sessionId: string;
  from: string;
  video: boolean;
  status: 'ringing' | 'rejected' | 'accepted' | 'missed';
  /** When it started ringing, epoch seconds. */
  timestamp: number;
}

export class TestNetwork {
  /** Who is on WhatsApp (the contacts port's answers). */
  readonly directory = new TestDirectory();
  /** Each account's chats as its phone shows them (the chats port's state). */
  readonly chats = new TestAccountChats();
  /** Each account's presence subscriptions and what the network reported of them. */
  readonly presence = new TestPresence();
  /** Every group on the network, with its members and settings. */
  readonly groups = new TestGroups();
  /** Each account's labels and the chats they tag. */
  readonly labels = new TestLabels();
  /** The status updates the sessions' accounts posted. */
  readonly statuses = new TestStatuses();
  private readonly credentials = new Map<string, LinkedIdentity>();
  private readonly connections = new Map<string, NetworkConnection>();
  private readonly qrCounters = new Map<string, number>();
  private refusing = false;
  private held: (() => void)[] = [];
  /** When true, connection attempts hang (held) until `releaseHeld()`, as a slow network's handshakes would. */
  holdConnects = false;
  readonly logoutBehaviour = new Map<string, LogoutBehaviour>();
  readonly stopBehaviour = new Map<string, StopBehaviour>();

  /** The QR payload shown for a session's n-th QR. */
  nextQr(sessionId: string): string {
    const n = (this.qrCounters.get(sessionId) ?? 0) + 1;
    this.qrCounters.set(sessionId, n);
    return `waygate-test-qr:${sessionId}:${n}`;
  }

  credentialsOf(sessionId: string): LinkedIdentity | undefined {
    return this.credentials.get(sessionId);
  }

  /** The device logs in with `identity`: its credentials reach the server, then the connection is ready. */
  linked(connection: NetworkConnection, identity: LinkedIdentity): void {
    connection.emit('credentialsPresented', {});
    connection.emit('ready', identity);
    reissueSubscriptions(this.presence, connection.sessionId);
  }

  storeCredentials(sessionId: string, identity: LinkedIdentity): void {
    this.credentials.set(sessionId, identity);
  }

  wipeCredentials(sessionId: string): void {
    this.credentials.delete(sessionId);
    this.presence.forget(sessionId);
  }

  /** The network tells what a chat's people show; it reaches the session only if it subscribed to the chat. */
  reportPresence(sessionId: string, chatId: string, participants: PresenceParticipant[]): void {
    const presence = this.presence.report(sessionId, chatId, participants);
    if (presence) this.connections.get(sessionId)?.emit('presenceUpdated', presence);
  }

  attach(connection: NetworkConnection): void {
    this.connections.set(connection.sessionId, connection);
  }

  detach(sessionId: string, connection: NetworkConnection): void {
    if (this.connections.get(sessionId) === connection) this.connections.delete(sessionId);
  }

  isConnected(sessionId: string): boolean {
    return this.connections.has(sessionId);
  }

  /** A pending operation that a 'hang' behaviour waits on until `releaseHeld()`. */
  hold(): Promise<void> {
    return new Promise((resolve) => this.held.push(resolve));
  }

  /** How many operations are held (hanging) right now. */
  get heldCount(): number {
    return this.held.length;
  }

  /** Lets every held (hanging) operation go on as if the network had finally answered. */
  releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const release of held) release();
  }

  /** When true, connection attempts fail (to exercise reconnect backoff). */
  refuseConnections(refuse: boolean): void {
    this.refusing = refuse;
  }

  get refusesConnections(): boolean {
    return this.refusing;
  }

  /** Acts as the phone scanning the QR: the session links with this identity. */
  scanQr(sessionId: string, identity: { phone: string; pushName?: string | null }): void {
    const connection = this.connections.get(sessionId);
    if (!connection) throw new Error(`no live connection for session ${sessionId}`);
    const linked = { phone: identity.phone, pushName: identity.pushName ?? null };
    this.credentials.set(sessionId, linked);
    this.linked(connection, linked);
  }

  private readonly pairingCodes = new Map<string, { code: string; phone: string }>();
  private issuedCodes = 0;

  /** The code a companion gets for `phone`: 8 characters, different per request. */
  issuePairingCode(sessionId: string, phone: string): string {
    this.issuedCodes += 1;
    const code = `WG${phone.slice(-2)}${String(this.issuedCodes % 10_000).padStart(4, '0')}`;
    this.pairingCodes.set(sessionId, { code, phone });
    return code;
  }

  /** Acts as the user typing the code on the phone: the session links with that phone number. */
  enterPairingCode(sessionId: string, code: string, pushName: string | null = null): void {
    const issued = this.pairingCodes.get(sessionId);
    if (!issued || issued.code !== code) throw new Error('wrong pairing code');
    this.pairingCodes.delete(sessionId);
    this.scanQr(sessionId, { phone: issued.phone, pushName });
  }

  private readonly refusingSends = new Set<string>();

  /** When true, the session's sends fail as the network refusing them would (to exercise the send breaker). */
  refuseSends(sessionId: string, refuse: boolean): void {
    if (refuse) this.refusingSends.add(sessionId);
    else this.refusingSends.delete(sessionId);
  }

  refusesSends(sessionId: string): boolean {
    return this.refusingSends.has(sessionId);
  }

  /** Messages the sessions sent, in order, as the network received them. */
  readonly sent = new Map<string, OutgoingMessage[]>();
  /** Chats the network refuses messages to: a send to one fails (as a blocked or unknown number would). */
  readonly refusedChats = new Set<string>();

  recordSent(sessionId: string, message: OutgoingMessage): void {
    this.sent.set(sessionId, [...(this.sent.get(sessionId) ?? []), message]);
    this.chats.know(sessionId, message.chatId);
  }

  /** The network restricts the account (or lifts the restriction). */
  restrict(sessionId: string, notice: RestrictionNotice): void {
    this.connections.get(sessionId)?.emit('restriction', notice);
  }

  /** A contact's message arriving at the session; resolves once the session stored it. */
  deliverInbound(sessionId: string, message: InboundMessage): Promise<void> {
    const connection = this.connections.get(sessionId);
    if (!connection) throw new Error(`no live connection for session ${sessionId}`);
    this.chats.know(sessionId, message.chatId);
    return connection.receive(message);
  }

  /**
   * The account's phone changes a chat (archives, pins, mutes, marks it unread or read): the session hears it as a
   * synced app-state change. Throws for a chat the account lacks.
   */
  phoneChangesChat(sessionId: string, chatId: string, change: Partial<PhoneChat>): void {
    const chat = this.chats.of(sessionId, chatId);
    if (!chat) throw new Error(`the account of session ${sessionId} has no chat ${chatId}`);
    Object.assign(chat, change);
    this.connections.get(sessionId)?.emit('chatsChanged', { changes: [changeOf(chatId, chat, Date.now())] });
  }

  /** The account's phone deletes a chat: the session hears it. */
  phoneDeletesChat(sessionId: string, chatId: string): void {
    this.chats.forget(sessionId, chatId);
    this.connections.get(sessionId)?.emit('chatsDeleted', { chatIds: [chatId] });
  }

  /** A contact's reaction, edit or revoke arriving at the session; resolves once the session stored it. */
  deliverChange(sessionId: string, change: InboundChange): Promise<void> {
    const connection = this.connections.get(sessionId);
    if (!connection) throw new Error(`no live connection for session ${sessionId}`);
    return connection.receiveChange(change);
  }

  /** A contact's status post (or its deletion) arriving at the session; resolves once the session stored it. */
  deliverStatus(sessionId: string, status: InboundStatus): Promise<void> {
    const connection = this.connections.get(sessionId);
    if (!connection) throw new Error(`no live connection for session ${sessionId}`);
    return connection.receiveStatus(status);
  }

  /** The network shows that a contact's LID and phone number are one person. */
  linkIdentity(sessionId: string, alias: { lid: string; phone: string }): void {
    this.connections.get(sessionId)?.emit('identityLinked', alias);
  }

  /** A receipt for a message the session sent (delivered, read …). */
  acknowledge(sessionId: string, update: OutgoingStatus): void {
    this.connections.get(sessionId)?.emit('messageStatus', update);
  }

  /** Drops the connection as a network failure would (credentials kept). */
  dropConnection(sessionId: string): void {
    this.connections.get(sessionId)?.drop(false);
  }

  /** Unlinks the device from the network side: credentials become void. */
  unlinkFromPhone(sessionId: string): void {
    this.credentials.delete(sessionId);
    this.connections.get(sessionId)?.drop(true);
  }

  /** Calls placed to the sessions' accounts, by call id. */
  readonly calls = new Map<string, TestCall>();
  private placedCalls = 0;

  /** A contact (`from`, neutral id) calls the session's account; answers the call id. */
  placeCall(sessionId: string, from: string, video = false): string {
    const connection = this.connections.get(sessionId);
    if (!connection) throw new Error(`no live connection for session ${sessionId}`);
    this.placedCalls += 1;
    const callId = `TESTCALL${String(this.placedCalls).padStart(6, '0')}`;
    const timestamp = Math.floor(Date.now() / 1000);
    this.calls.set(callId, { sessionId, from, video, status: 'ringing', timestamp });
    connection.emit('callOffered', this.offerOf(callId));
    return callId;
  }

  /** The call as its offer told it. */
  offerOf(callId: string): IncomingCall {
    const call = this.calls.get(callId);
    if (!call) throw new Error(`no call ${callId}`);
    return { callId, from: call.from, video: call.video, isGroup: false, timestamp: call.timestamp };
  }

  /** A ringing call ends on the network: answered on the phone, or not answered (the caller hung up, a timeout). */
  endCall(callId: string, outcome: 'accepted' | 'missed'): void {
    const call = this.calls.get(callId);
    if (call?.status !== 'ringing') throw new Error(`no call ${callId} rings`);
    call.status = outcome;
    this.connections.get(call.sessionId)?.emit('callEnded', { ...this.offerOf(callId), outcome });
  }

  /** The session's device declined a call ringing on its account. */
  recordRejected(sessionId: string, callId: string): void {
    const call = this.calls.get(callId);
    if (!call || call.sessionId !== sessionId)
      throw new Error(`no call ${callId} rings on session ${sessionId}`);
    call.status = 'rejected';
  }
}
