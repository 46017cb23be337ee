/**
 * Helpers of the end-to-end tests of inbound texts: contacts of the simulated network write to a linked account,
 * and the tests find every text stored (and published) exactly once by its network id.
 */
import { expect } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import type { SimulatorProcess } from '#tests/helpers/simulator-process.js';

interface Account {
  devices: { liveConnections: number; offlineQueue: number; unackedMessages: number }[];
}

/** A text a contact sent, by its network id. */
export interface SentText {
  id: string;
  contact: string;
  text: string;
}

/**
 * Every contact sends `perContact` texts to `phone`, one after the other (the contacts in parallel), each text
 * naming its contact, `label` and its number.
 */
export async function contactsWrite(
  sim: SimulatorProcess,
  contacts: readonly string[],
  phone: string,
  perContact: number,
  label: string,
): Promise<SentText[]> {
  const sent = await Promise.all(
    contacts.map(async (contact) => {
      const mine: SentText[] = [];
      for (let i = 0; i < perContact; i++) {
        const text = `${label} ${i} from ${contact}`;
        const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${contact}/messages`, {
          to: phone,
          text,
        });
        mine.push({ id, contact, text });
      }
      return mine;
    }),
  );
  return sent.flat();
}

/** The linked device's live connections and the nodes the simulator holds for its next login. */
export async function deviceOf(
  sim: SimulatorProcess,
  phone: string,
): Promise<{ liveConnections: number; offlineQueue: number; unackedMessages: number }> {
  const device = (await sim.admin.get<Account>(`/accounts/${phone}`)).body.devices[0];
  if (!device) throw new Error(`no device linked for ${phone}`);
  return device;
}

/** The session's stored incoming rows, through the API (`request` answers the parsed body). */
export async function incomingRows(
  request: (path: string) => Promise<{ messages: Message[] }>,
  sessionId: string,
): Promise<Message[]> {
  const page = await request(`/api/sessions/${sessionId}/messages?limit=1000`);
  return page.messages.filter((m) => m.direction === 'incoming');
}

/** True once every text of `texts` has a stored row. */
export function allStored(rows: readonly Message[], texts: readonly SentText[]): boolean {
  const stored = new Set(rows.map((m) => m.waMessageId));
  return texts.every((t) => stored.has(t.id));
}

/** Every text is stored exactly once, under its network id, with its body and its contact as the chat. */
export function expectStoredOnce(rows: readonly Message[], texts: readonly SentText[]): void {
  const missing = texts.filter((t) => !rows.some((m) => m.waMessageId === t.id));
  expect(missing).toEqual([]);
  for (const t of texts) {
    const copies = rows.filter((m) => m.waMessageId === t.id);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ body: t.text, chatId: `${t.contact}@c.us`, direction: 'incoming' });
  }
}

/** How many `message.received` events carried each network id. */
export function receivedCounts(events: readonly GatewayEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) {
    if (event.event === 'message.received') counts.set(event.data.id, (counts.get(event.data.id) ?? 0) + 1);
  }
  return counts;
}

/** Every text was published exactly once as `message.received`. */
export function expectPublishedOnce(events: readonly GatewayEvent[], texts: readonly SentText[]): void {
  const counts = receivedCounts(events);
  expect(texts.filter((t) => counts.get(t.id) !== 1).map((t) => [t.id, counts.get(t.id) ?? 0])).toEqual([]);
}
