/**
 * The Baileys engine's presence port (rows of shared/domain/engine-operations/presence.ts). WhatsApp tells a
 * chat's presence only to a connection that subscribed to it, so the chats subscribed to are kept in the session's
 * auth state (beside its keys: they move with the session to another host and go at logout) and issued again each
 * time a connection opens. The last presence reported per chat is held in memory for the session (spec: chat
 * presence), across the engine instances of its reconnects, and each change is reported as `presenceUpdated`.
 */
import type { WASocket } from '@whiskeysockets/baileys';
import { z } from 'zod';
import type { ChatPresence } from '#shared/domain/chat-presence.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { EngineEmitter } from '../engine-events.js';
import { toBaileysJid, toNeutralJid } from './baileys-jids.js';

/** The auth-state category and key of the subscribed chats. */
const CATEGORY = 'waygate-presence';
const KEY = 'subscriptions';
const Subscriptions = z.array(z.string());

export interface BaileysPresenceOptions {
  sessionId: string;
  authState: AuthStateStore;
  /** The session's last reported presence per chat (kept by the factory, so a reconnect keeps it). */
  reported: Map<string, ChatPresence>;
  /** False once the session's credentials are being wiped: nothing more is written. */
  persisting: () => boolean;
  logger: Pick<Logger, 'warn'>;
}

export class BaileysPresence implements PortOperations<'presence'> {
  private subscribed: Promise<Set<string>> | null = null;

  constructor(
    private readonly socket: () => WASocket | null,
    private readonly events: EngineEmitter,
    private readonly options: BaileysPresenceOptions,
  ) {}

  private open(): WASocket {
    const socket = this.socket();
    if (!socket) throw new Error('no open connection');
    return socket;
  }

  async subscribe({ chatId }: { chatId: string }) {
    await this.open().presenceSubscribe(toBaileysJid(chatId));
    const chats = await this.subscriptions();
    if (!chats.has(chatId)) {
      chats.add(chatId);
      await this.save(chats);
    }
    return { success: true as const };
  }

  async presenceOf({ chatId }: { chatId: string }) {
    return this.options.reported.get(chatId) ?? null;
  }

  async setOwn({ available }: { available: boolean }) {
    await this.open().sendPresenceUpdate(available ? 'available' : 'unavailable');
    return { success: true as const };
  }

  listen(socket: WASocket): void {
    socket.ev.on('connection.update', ({ connection }) => {
      if (connection === 'open') void this.reissue(socket);
    });
    socket.ev.on('presence.update', ({ id, presences }) => {
      const chatId = toNeutralJid(id);
      const presence: ChatPresence = {
        chatId,
        participants: Object.entries(presences).map(([participant, data]) => ({
          id: toNeutralJid(participant),
          state: data.lastKnownPresence,
          lastSeen: typeof data.lastSeen === 'number' ? data.lastSeen : null,
        })),
        observedAt: new Date().toISOString(),
      };
      const previous = this.options.reported.get(chatId);
      this.options.reported.set(chatId, presence);
      // Reported on change only: the network repeats a presence on every subscription.
      if (!previous || JSON.stringify(previous.participants) !== JSON.stringify(presence.participants)) {
        this.events.emit('presenceUpdated', presence);
      }
    });
  }

  /** A new connection: every remembered subscription is issued on it (they belong to a connection). */
  private async reissue(socket: WASocket): Promise<void> {
    for (const chatId of await this.subscriptions()) {
      await socket.presenceSubscribe(toBaileysJid(chatId)).catch((error: unknown) => {
        this.options.logger.warn({ err: error, chatId }, 'a presence subscription could not be issued again');
      });
    }
  }

  private subscriptions(): Promise<Set<string>> {
    this.subscribed ??= this.options.authState
      .readKeys(this.options.sessionId, CATEGORY, [KEY])
      .then((stored) => {
        const parsed = Subscriptions.safeParse(JSON.parse(stored.get(KEY) ?? '[]'));
        return new Set(parsed.success ? parsed.data : []);
      })
      .catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'presence subscriptions could not be read');
        return new Set<string>();
      });
    return this.subscribed;
  }

  private async save(chats: Set<string>): Promise<void> {
    if (!this.options.persisting()) return;
    await this.options.authState.writeKeys(this.options.sessionId, [
      { category: CATEGORY, id: KEY, value: JSON.stringify([...chats]) },
    ]);
  }
}
