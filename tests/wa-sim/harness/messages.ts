/** Message-level waits on a Baileys socket: an incoming text, the status of a sent message, and a log of events. */
import type { proto, WAMessage, WAMessageUpdate, WASocket } from '@whiskeysockets/baileys';
import { eventually, waitForEvent } from './wait.js';

/** The text of a Baileys message, whichever text field carries it. */
export function textOf(message: proto.IMessage | null | undefined): string | undefined {
  return message?.conversation ?? message?.extendedTextMessage?.text ?? undefined;
}

/** Resolves with the upserted message whose text is `text`. */
export function waitForText(sock: WASocket, text: string, timeoutMs = 10_000): Promise<WAMessage> {
  return waitForEvent(
    sock,
    'messages.upsert',
    ({ messages }) => messages.find((message) => textOf(message.message) === text),
    timeoutMs,
  );
}

/**
 * Resolves once message `id` reaches `status` (3 delivered, 4 read). Receipts that land while Baileys buffers
 * events are merged into the message upsert instead of a separate update, so both events are watched.
 */
export function waitForStatus(
  sock: WASocket,
  id: string,
  status: number,
  timeoutMs = 10_000,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const done = (value: number): void => {
      clearTimeout(timer);
      sock.ev.off('messages.update', onUpdate);
      sock.ev.off('messages.upsert', onUpsert);
      resolve(value);
    };
    const onUpdate = (updates: Array<{ key: proto.IMessageKey; update: Partial<WAMessage> }>): void => {
      for (const { key, update } of updates) {
        if (key.id === id && typeof update.status === 'number' && update.status >= status)
          done(update.status);
      }
    };
    const onUpsert = ({ messages }: { messages: WAMessage[] }): void => {
      for (const message of messages) {
        if (message.key.id === id && typeof message.status === 'number' && message.status >= status)
          done(message.status);
      }
    };
    const timer = setTimeout(() => {
      sock.ev.off('messages.update', onUpdate);
      sock.ev.off('messages.upsert', onUpsert);
      reject(new Error(`timed out waiting for status ${status} of ${id}`));
    }, timeoutMs);
    sock.ev.on('messages.update', onUpdate);
    sock.ev.on('messages.upsert', onUpsert);
  });
}

/** A reaction as Baileys emits it (`messages.reaction`): the reacted message's key and the reaction. */
export interface ReactionEvent {
  readonly key: proto.IMessageKey;
  readonly reaction: proto.IReaction;
}

/**
 * Everything a socket upserts, updates and reacts from now on, so a test can look a message up by the id the
 * admin API answered (the event may come before that answer does).
 */
export class MessageLog {
  readonly upserts: WAMessage[] = [];
  readonly updates: WAMessageUpdate[] = [];
  readonly reactions: ReactionEvent[] = [];
  private readonly onUpsert = ({ messages }: { messages: WAMessage[] }): void => {
    this.upserts.push(...messages);
  };
  private readonly onUpdate = (updates: WAMessageUpdate[]): void => {
    this.updates.push(...updates);
  };
  private readonly onReaction = (reactions: ReactionEvent[]): void => {
    this.reactions.push(...reactions);
  };

  constructor(private readonly sock: WASocket) {
    sock.ev.on('messages.upsert', this.onUpsert);
    sock.ev.on('messages.update', this.onUpdate);
    sock.ev.on('messages.reaction', this.onReaction);
  }

  /** The upserted message `id`, once it arrived. */
  upserted(id: string, timeoutMs = 10_000): Promise<WAMessage> {
    return eventually(() => this.upserts.find((m) => m.key.id === id), timeoutMs, `upsert of ${id}`);
  }

  /** The first update of message `id` for which `pick` holds. */
  updated(
    id: string,
    pick: (update: WAMessageUpdate) => boolean,
    timeoutMs = 10_000,
  ): Promise<WAMessageUpdate> {
    const found = () => this.updates.find((u) => u.key.id === id && pick(u));
    return eventually(found, timeoutMs, `update of ${id}`);
  }

  /** The reaction sent in message `id`, once Baileys emitted it. */
  reaction(id: string, timeoutMs = 10_000): Promise<ReactionEvent> {
    const found = () => this.reactions.find((r) => r.reaction.key?.id === id);
    return eventually(found, timeoutMs, `reaction ${id}`);
  }

  /** Stops recording. */
  stop(): void {
    this.sock.ev.off('messages.upsert', this.onUpsert);
    this.sock.ev.off('messages.update', this.onUpdate);
    this.sock.ev.off('messages.reaction', this.onReaction);
  }
}
