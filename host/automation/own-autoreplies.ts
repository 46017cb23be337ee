/**
 * The autoreply loop guard across sessions: two sessions of this gateway whose rules answer each other's messages
 * would ping-pong forever with cooldown 0 (and once per cooldown otherwise). Every reply is stored with the rule
 * that sent it in its metadata (`{ autoreply: ruleId }`), under the network id the receiving side sees too, so an
 * incoming message from a number that one of our sessions is linked to can be looked up and recognised.
 */
import type { Message } from '#shared/domain/message.js';
import { SESSION_STATUSES } from '#shared/domain/session.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';

/** The metadata key that marks a stored outgoing message as an autoreply; its value is the rule's id. */
export const AUTOREPLY_METADATA_KEY = 'autoreply';

/** The metadata an autoreply of `ruleId` is stored with. */
export function autoreplyMetadata(ruleId: string): Record<string, unknown> {
  return { [AUTOREPLY_METADATA_KEY]: ruleId };
}

/** True when the stored row is an autoreply this gateway sent. */
export function isAutoreplyRow(message: Message): boolean {
  return message.direction === 'outgoing' && typeof message.metadata?.[AUTOREPLY_METADATA_KEY] === 'string';
}

/** How long the phone → sessions index is reused: linking a number is rare, incoming messages are not. */
const INDEX_TTL_MS = 5000;

export interface OwnAutorepliesDeps {
  sessions: Pick<SessionStore, 'listByStatus'>;
  messages: Pick<MessageStore, 'findByWaMessageId'>;
  clock: Clock;
}

export class OwnAutoreplies {
  private index: { phones: Map<string, string[]>; expiresAt: number } | null = null;

  constructor(private readonly deps: OwnAutorepliesDeps) {}

  /**
   * True when the message (network id `waMessageId`, from the personal chat `from`) is an autoreply one of this
   * gateway's sessions sent. Only senders whose number a session here is linked to cost a message lookup.
   */
  async isAutoreply(from: string, waMessageId: string): Promise<boolean> {
    const phone = from.endsWith('@c.us') ? from.slice(0, -'@c.us'.length) : null;
    if (!phone) return false;
    for (const sessionId of await this.sessionsLinkedTo(phone)) {
      const row = await this.deps.messages.findByWaMessageId(sessionId, waMessageId);
      if (row && isAutoreplyRow(row)) return true;
    }
    return false;
  }

  /**
   * Drops the phone → sessions index: a session of this host was just linked to a number (`session.authenticated`),
   * whose autoreplies must be recognised at once. Sessions of other hosts are seen within the index's lifetime.
   */
  forget(): void {
    this.index = null;
  }

  private async sessionsLinkedTo(phone: string): Promise<readonly string[]> {
    const now = this.deps.clock.now().getTime();
    if (!this.index || this.index.expiresAt <= now) {
      const phones = new Map<string, string[]>();
      // Every status: the sender may be reconnecting, or stopped since it replied; its rows stay either way.
      for (const session of await this.deps.sessions.listByStatus(SESSION_STATUSES)) {
        if (session.phone) phones.set(session.phone, [...(phones.get(session.phone) ?? []), session.id]);
      }
      this.index = { phones, expiresAt: now + INDEX_TTL_MS };
    }
    return this.index.phones.get(phone) ?? [];
  }
}
