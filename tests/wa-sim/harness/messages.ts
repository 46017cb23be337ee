/** Message-level waits on a Baileys socket: an incoming text, and the status of a sent message. */
import type { proto, WAMessage, WASocket } from '@whiskeysockets/baileys';
import { waitForEvent } from './wait.js';

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
