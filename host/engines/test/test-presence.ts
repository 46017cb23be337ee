/**
 * Presence on the test network: which chats each session's account subscribed to (kept by the network, as a real
 * engine keeps them beside its credentials, so they outlast the connection), each subscription as issued on every
 * connection (tests count them), what the network last reported, and the test engine's presence port over them.
 * A test acts as the network with `report`: only a subscribed chat's presence reaches the session.
 */
import type { ChatPresence, PresenceParticipant } from '#shared/domain/chat-presence.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';

export class TestPresence {
  private readonly subscriptions = new Map<string, Set<string>>();
  /** Per session: every subscription the network received, in order (one per chat per connection). */
  readonly issued = new Map<string, string[]>();
  /** Per session: the account's own presence as last set (true: online). */
  readonly own = new Map<string, boolean>();
  private readonly reported = new Map<string, Map<string, ChatPresence>>();

  subscribedChats(sessionId: string): string[] {
    return [...(this.subscriptions.get(sessionId) ?? [])];
  }

  /** The network takes a subscription of this connection. */
  issue(sessionId: string, chatId: string): void {
    this.issued.set(sessionId, [...(this.issued.get(sessionId) ?? []), chatId]);
  }

  remember(sessionId: string, chatId: string): void {
    const chats = this.subscriptions.get(sessionId) ?? new Set<string>();
    chats.add(chatId);
    this.subscriptions.set(sessionId, chats);
  }

  lastReported(sessionId: string, chatId: string): ChatPresence | null {
    return this.reported.get(sessionId)?.get(chatId) ?? null;
  }

  /** The network tells what a chat's people show; null when the session did not subscribe to the chat. */
  report(sessionId: string, chatId: string, participants: PresenceParticipant[]): ChatPresence | null {
    if (!this.subscriptions.get(sessionId)?.has(chatId)) return null;
    const presence = { chatId, participants, observedAt: new Date().toISOString() };
    const chats = this.reported.get(sessionId) ?? new Map<string, ChatPresence>();
    chats.set(chatId, presence);
    this.reported.set(sessionId, chats);
    return presence;
  }

  /** The account logged out: what it subscribed to goes with its credentials. */
  forget(sessionId: string): void {
    this.subscriptions.delete(sessionId);
    this.reported.delete(sessionId);
  }
}

/** The test engine's presence port for one session, while `open()`. */
export function testPresence(
  presence: TestPresence,
  sessionId: string,
  open: () => boolean,
): PortOperations<'presence'> {
  const live = () => {
    if (!open()) throw new Error('connection closed');
  };
  return {
    subscribe: async ({ chatId }) => {
      live();
      presence.remember(sessionId, chatId);
      presence.issue(sessionId, chatId);
      return { success: true as const };
    },
    presenceOf: async ({ chatId }) => presence.lastReported(sessionId, chatId),
    setOwn: async ({ available }) => {
      live();
      presence.own.set(sessionId, available);
      return { success: true as const };
    },
  };
}

/** A connection came up: it issues every remembered subscription again (they belong to a connection). */
export function reissueSubscriptions(presence: TestPresence, sessionId: string): void {
  for (const chatId of presence.subscribedChats(sessionId)) presence.issue(sessionId, chatId);
}
