/**
 * The Baileys engine's calls port: a call ringing on the account becomes a `callOffered` event (the session runner
 * decides whether to reject it), and a reject goes out on the socket that reported the call. The end of the ringing
 * the network reports becomes `callEnded`: answered on another device (`accept`), declined there (`reject`), or
 * not answered (`timeout`; `terminate`, the caller hung up). The caller's JID is kept as the network gave it (a LID
 * or a device JID: Baileys' reject names it as the call's creator); the events carry its neutral form.
 */
import type { WACallEvent, WASocket } from '@whiskeysockets/baileys';
import type { EngineEmitter } from '#host/engines/engine-events.js';
import type { EngineCalls } from '#host/engines/ports/calls.port.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { IncomingCall } from '../engine-events.js';
import { aliasOf, preferPhone, toNeutralJid } from './baileys-jids.js';

/** Calls still ringing that are remembered; beyond it the oldest goes (a call whose end never arrived). */
const MAX_RINGING = 256;
/** How each end of the ringing the network reports is told. */
const ENDED: Partial<Record<WACallEvent['status'], 'accepted' | 'rejected' | 'missed'>> = {
  accept: 'accepted',
  reject: 'rejected',
  timeout: 'missed',
  terminate: 'missed',
};

export class BaileysCalls implements EngineCalls {
  /** Ringing calls by id: the caller as the network named it, the socket that reported it, and the call told. */
  private readonly ringing = new Map<string, { from: string; socket: WASocket; call: IncomingCall }>();

  constructor(private readonly events: EngineEmitter) {}

  /** Reports the calls `socket` receives while it is the connection's current socket. */
  listen(socket: WASocket, isCurrent: () => boolean): void {
    socket.ev.on('call', (calls) => {
      if (!isCurrent()) return;
      for (const call of calls) {
        if (call.status === 'offer') this.offered(socket, call);
        else this.ended(call.id, ENDED[call.status]);
      }
    });
  }

  async rejectCall(callId: string): Promise<void> {
    const call = this.ringing.get(callId);
    if (!call) throw new Error(`no ringing call ${callId}`);
    this.ringing.delete(callId);
    await call.socket.rejectCall(callId, call.from);
  }

  /** The API's reject: declines the call and tells its end (404 when no such call rings now). */
  async reject({ callId }: { callId: string }) {
    const ringing = this.ringing.get(callId);
    if (!ringing) throw new NotFoundError(`Call ${callId} is not ringing`);
    await this.rejectCall(callId);
    this.events.emit('callEnded', { ...ringing.call, outcome: 'rejected' });
    return { success: true as const };
  }

  /** A call stopped ringing; told once, and only for a call this engine reported. */
  private ended(callId: string, outcome: 'accepted' | 'rejected' | 'missed' | undefined): void {
    const ringing = this.ringing.get(callId);
    if (!ringing || !outcome) return;
    this.ringing.delete(callId);
    this.events.emit('callEnded', { ...ringing.call, outcome });
  }

  private offered(socket: WASocket, call: WACallEvent): void {
    const told: IncomingCall = {
      callId: call.id,
      from: toNeutralJid(preferPhone(call.from, call.callerPn) ?? call.from),
      video: call.isVideo === true,
      isGroup: call.isGroup === true,
      timestamp: Math.floor((call.date?.getTime() ?? Date.now()) / 1000),
    };
    this.ringing.set(call.id, { from: call.from, socket, call: told });
    if (this.ringing.size > MAX_RINGING) {
      const oldest = this.ringing.keys().next().value;
      if (oldest !== undefined) this.ringing.delete(oldest);
    }
    // The caller may ring by LID with the number beside it: the pairing goes first, so the event names both.
    const alias = aliasOf(call.from, call.callerPn);
    if (alias) this.events.emit('identityLinked', alias);
    this.events.emit('callOffered', told);
  }
}
