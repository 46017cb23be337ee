/**
 * What a Baileys socket learns of chats: `chats.upsert`/`chats.update` merged by id, deletions, history chats; and a
 * wait for its app-state sync to settle.
 */
import type { Chat, ChatUpdate, WAPatchName, WASocket } from '@whiskeysockets/baileys';
import type { AdminClient } from './admin-client.js';
import { eventually } from './wait.js';

/** A chat as the socket's events described it so far (Baileys' own fields). */
export type ChatSeen = Partial<Chat>;

/** The chats one socket heard of; attach it before the socket connects (`ClientOptions.onSocket`) to miss nothing. */
export class ChatBook {
  readonly byId = new Map<string, ChatSeen>();
  /** Ids from `chats.delete`, in order. */
  readonly deleted: string[] = [];
  /** The chats of every `messaging-history.set`, as they came. */
  readonly history: Chat[] = [];

  readonly attach = (sock: WASocket): void => {
    sock.ev.on('chats.upsert', (chats) => this.merge(chats));
    sock.ev.on('chats.update', (updates) => this.merge(updates));
    sock.ev.on('chats.delete', (ids) => this.deleted.push(...ids));
    sock.ev.on('messaging-history.set', ({ chats }) => {
      this.history.push(...chats);
      this.merge(chats);
    });
  };

  /** Chat `id` once `pick` holds for what the events said of it. */
  when(id: string, pick: (chat: ChatSeen) => boolean, timeoutMs = 10_000): Promise<ChatSeen> {
    const found = () => {
      const chat = this.byId.get(id);
      return chat && pick(chat) ? chat : undefined;
    };
    return eventually(found, timeoutMs, `chat ${id}`);
  }

  /** Resolves once `chats.delete` named `id`. */
  async deletion(id: string, timeoutMs = 10_000): Promise<void> {
    await eventually(() => this.deleted.includes(id), timeoutMs, `chats.delete of ${id}`);
  }

  /** The chat `id` of a `messaging-history.set`, once one carried it. */
  historyChat(id: string, timeoutMs = 10_000): Promise<Chat> {
    return eventually(() => this.history.find((chat) => chat.id === id), timeoutMs, `history chat ${id}`);
  }

  private merge(chats: ReadonlyArray<ChatUpdate>): void {
    for (const update of chats) {
      // `conditional` is Baileys' own bookkeeping for its event buffer, not a chat field.
      const { conditional: _conditional, ...chat } = update;
      if (chat.id) this.byId.set(chat.id, { ...this.byId.get(chat.id), ...chat });
    }
  }
}

/**
 * Resolves once `sock` holds every app-state collection of account `phone` at the simulator's version and no resync
 * is left running. Closing a socket while Baileys waits for a sync answer leaves its 60-s query timer armed (it
 * never clears it), which keeps the test process alive after the tests.
 */
export async function appStateSettled(admin: AdminClient, phone: string, sock: WASocket): Promise<void> {
  const view = await admin.get<{ appState: Record<string, { version: number }> }>(`/accounts/${phone}`);
  const versions = view.body.appState;
  const names = Object.keys(versions) as WAPatchName[];
  let behind = '';
  const caughtUp = async (): Promise<boolean> => {
    const held = await sock.authState.keys.get('app-state-sync-version', names);
    // A collection never written is at version 0 on both sides, and Baileys stores no state for it.
    behind = names
      .filter((name) => (held[name]?.version ?? 0) !== versions[name]?.version)
      .map((name) => `${name} v${held[name]?.version ?? 0} of v${versions[name]?.version}`)
      .join(', ');
    return behind === '';
  };
  // A companion hears of the others' patches, not of its own: one that uploaded behind Baileys' back (a test's
  // hand-made patch) catches up by asking.
  await sock.resyncAppState(names, false);
  await eventually(caughtUp, 10_000, `app-state sync of ${phone}`).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}: ${behind}`);
  });
  // Resyncs run one at a time (one keys transaction): this one ends after any a late server_sync started.
  await sock.resyncAppState(names, false);
}
