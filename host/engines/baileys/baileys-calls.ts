/**
 * The Baileys engine's calls port: a call ringing on the account becomes a `callOffered` event (the session runner
 * decides whether to reject it), and a reject goes out on the socket that reported the call. The caller's JID is
 * kept as the network gave it (a LID or a device JID: Baileys' reject names it as the call's creator); the event
 * carries its neutral form.
 */
import type { WACallEvent, WASocket } from '@whiskeysockets/baileys';
import type { EngineEmitter } from '#host/engines/engine-events.js';
import type { EngineCalls } from '#host/engines/ports/calls.port.js';
import { aliasOf, preferPhone, toNeutralJid } from './baileys-jids.js';

/** Calls still ringing that are remembered; beyond it the oldest goes (a call whose end never arrived). */
const MAX_RINGING = 256;
const ENDED: ReadonlySet<WACallEvent['status']> = new Set(['accept', 'reject', 'timeout', 'terminate']);

export class BaileysCalls implements EngineCalls {
  /** Ringing calls by id: the caller as the network named it, and the socket that reported the call. */
  private readonly ringing = new Map<string, { from: string; socket: WASocket }>();

  constructor(private readonly events: EngineEmitter) {}

  /** Reports the calls `socket` receives while it is the connection's current socket. */
  listen(socket: WASocket, isCurrent: () => boolean): void {
    socket.ev.on('call', (calls) => {
      if (!isCurrent()) return;
      for (const call of calls) {
        if (call.status === 'offer') this.offered(socket, call);
        else if (ENDED.has(call.status)) this.ringing.delete(call.id);
      }
    });
  }

  async rejectCall(callId: string): Promise<void> {
    const call = this.ringing.get(callId);
    if (!call) throw new Error(`no ringing call ${callId}`);
    this.ringing.delete(callId);
    await call.socket.rejectCall(callId, call.from);
  }

  private offered(socket: WASocket, call: WACallEvent): void {
    this.ringing.set(call.id, { from: call.from, socket });
    if (this.ringing.size > MAX_RINGING) {
      const oldest = this.ringing.keys().next().value;
      if (oldest !== undefined) this.ringing.delete(oldest);
    }
    // The caller may ring by LID with the number beside it: the pairing goes first, so the event names both.
    const alias = aliasOf(call.from, call.callerPn);
    if (alias) this.events.emit('identityLinked', alias);
    this.events.emit('callOffered', {
      callId: call.id,
      from: toNeutralJid(preferPhone(call.from, call.callerPn) ?? call.from),
      video: call.isVideo === true,
      isGroup: call.isGroup === true,
      timestamp: Math.floor((call.date?.getTime() ?? Date.now()) / 1000),
    });
  }
}
