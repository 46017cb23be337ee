/**
 * Helpers of the end-to-end autoreply tests: contacts of the simulated network write to a linked account, rules
 * are managed through the API, and replies are read where they land (the contact's inbox at the simulator) and
 * where the gateway keeps them (message history, marked with their rule).
 */
import { expect } from '@jest/globals';
import type { Message } from '#shared/domain/message.js';
import type { SimulatorProcess } from '#tests/helpers/simulator-process.js';
import { type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

/**
 * How long a test waits, after a later message was answered, before it holds that an earlier one got no reply:
 * the earlier one was received and evaluated first, so its reply would have been queued ahead of the later one.
 */
export const QUIET_MS = 1000;

/** A text as a contact received it. */
export interface InboxText {
  id: string;
  from: string;
  text: string;
}

/** The contact sends `text` to the account `phone`; answers the network id. */
export async function contactSays(
  sim: SimulatorProcess,
  contact: string,
  phone: string,
  text: string,
): Promise<string> {
  return (await sim.admin.ok<{ id: string }>(`/contacts/${contact}/messages`, { to: phone, text })).id;
}

/** What the contact received with exactly this text. */
export async function received(sim: SimulatorProcess, contact: string, text: string): Promise<InboxText[]> {
  const inbox = (await sim.admin.get<InboxText[]>(`/contacts/${contact}/messages`)).body;
  return inbox.filter((message) => message.text === text);
}

/** Waits until the contact has received `count` texts reading `text`; answers them. */
export async function waitForReplies(
  sim: SimulatorProcess,
  contact: string,
  text: string,
  count = 1,
): Promise<InboxText[]> {
  return waitFor(async () => {
    const replies = await received(sim, contact, text);
    return replies.length >= count ? replies : null;
  }, 15_000);
}

/** Creates a rule of the session through the API; answers its id. */
export async function createRule(
  gw: TestGateway,
  sessionId: string,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await gw.request('POST', `/api/sessions/${sessionId}/automation-rules`, {
    body: { name: `rule ${String(body.replyText)}`.slice(0, 100), ...body },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Deletes every rule of the session through the API. */
export async function deleteRules(gw: TestGateway, sessionId: string): Promise<void> {
  const rules = (await gw.request<{ id: string }[]>('GET', `/api/sessions/${sessionId}/automation-rules`))
    .body;
  for (const rule of rules) {
    expect(
      (await gw.request('DELETE', `/api/sessions/${sessionId}/automation-rules/${rule.id}`)).status,
    ).toBe(204);
  }
}

/** The session's stored autoreplies (outgoing rows marked with their rule), in `chatId` when given. */
export async function autoreplyRows(gw: TestGateway, sessionId: string, chatId?: string): Promise<Message[]> {
  const query = chatId ? `&chatId=${encodeURIComponent(chatId)}` : '';
  const page = (
    await gw.request<{ messages: Message[] }>('GET', `/api/sessions/${sessionId}/messages?limit=1000${query}`)
  ).body;
  return page.messages.filter((m) => m.direction === 'outgoing' && typeof m.metadata?.autoreply === 'string');
}

/** Waits QUIET_MS: replies still on their way would land meanwhile. */
export function quietPeriod(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, QUIET_MS));
}
