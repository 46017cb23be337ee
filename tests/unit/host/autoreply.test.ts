/**
 * The autoreply evaluator against the memory data store and a memory command queue: which incoming messages a
 * rule answers (order, conditions, enabled, per (rule, chat) cooldown), which it never answers (own, group and
 * broadcast messages, other events, another session's autoreply), and that a reply takes the ordinary send path:
 * a pending outgoing row marked with its rule and a `message.send` command for it.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { type AutoreplyConsumer, createAutoreply } from '#host/automation/autoreply.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import type { AutomationRule } from '#shared/domain/automation-rule.js';
import type { GatewayEvent, MessageEventData } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import type { Session } from '#shared/domain/session.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { aMessage, anAutomationRule, aReceivedText, aSession, at } from '#tests/helpers/builders.js';
import { capturingLogger, type LogLine } from '#tests/helpers/capturing-logger.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const OWN_PHONE = '15550001111';
const ALICE = '15550002222@c.us';
const BOB = '15550003333@c.us';

let data: DataStore;
let queue: MemoryQueue;
let clock: TestClock;
let session: Session;
let consume: AutoreplyConsumer;
let logged: LogLine[];
/** Replies already returned by `replies()`. */
let seen: Set<string>;

beforeEach(async () => {
  data = createMemoryDataStore();
  queue = new MemoryQueue({ name: 'commands', fifo: true, visibilityTimeoutSeconds: 30 });
  clock = new TestClock();
  logged = [];
  seen = new Set();
  session = aSession({ status: 'ready', phone: OWN_PHONE });
  await data.sessions.create(session);
  consume = createAutoreply({
    data,
    commands: new CommandQueue(queue),
    outcomes: new InProcessMessageOutcomes(),
    clock,
    logger: capturingLogger(logged),
  });
});

/** A rule of the session, created `order` seconds after T0 (rules are evaluated oldest first). */
async function rule(order: number, overrides: Partial<AutomationRule> = {}): Promise<AutomationRule> {
  const created = anAutomationRule({ sessionId: session.id, createdAt: at(order), ...overrides });
  await data.automationRules.create(created, { maxPerSession: 0 });
  return created;
}

/** A text that `chatId` sent to the session, as the message sink publishes it. */
function received(chatId: string, body = 'hello', overrides: Partial<MessageEventData> = {}): GatewayEvent {
  return aReceivedText(session.id, { chatId, body, to: `${OWN_PHONE}@c.us`, ...overrides });
}

/**
 * The replies queued since the last call, in the order they were sent: each `message.send` command taken from the
 * queue with its stored row. Every outgoing row of the session has its command.
 */
async function replies(): Promise<Message[]> {
  const commands = new CommandQueue(queue);
  const rows: Message[] = [];
  // The session's commands form one FIFO group: the next is delivered once the one before is acked.
  for (;;) {
    const [received] = await commands.receive({ maxMessages: 1, waitTimeSeconds: 0 });
    if (!received) break;
    if (!received.ok || received.command.type !== 'message.send') throw new Error('not a send command');
    const row = await data.messages.findById(session.id, received.command.messageId);
    if (!row) throw new Error('a send command without its row');
    rows.push(row);
    await commands.ack(received.message);
  }
  const { messages } = await data.messages.list({ sessionId: session.id }, { limit: 1000, offset: 0 });
  const outgoing = messages.filter((m) => m.direction === 'outgoing');
  expect(
    outgoing
      .filter((m) => !seen.has(m.id))
      .map((m) => m.id)
      .sort(),
  ).toEqual(rows.map((m) => m.id).sort());
  for (const row of rows) seen.add(row.id);
  return rows;
}

describe('autoreply evaluation', () => {
  it('answers a matching text through the send path: a pending row marked with its rule and a send command', async () => {
    const greeting = await rule(1, { replyText: 'We are closed today.' });

    await consume(received(ALICE));

    const [reply, ...more] = await replies();
    expect(more).toEqual([]);
    expect(reply).toMatchObject({
      chatId: ALICE,
      to: ALICE,
      from: `${OWN_PHONE}@c.us`,
      body: 'We are closed today.',
      type: 'text',
      direction: 'outgoing',
      status: 'pending',
      metadata: { autoreply: greeting.id },
    });
  });

  it('answers with the first matching rule only: the oldest, passing over rules whose conditions fail', async () => {
    const price = await rule(1, {
      replyText: 'Prices: see our site.',
      conditions: { conditions: [{ field: 'body', operator: 'contains', value: 'price' }] },
    });
    const fallback = await rule(2, { replyText: 'Hello!' });
    await rule(3, { replyText: 'never: a later catch-all' });

    await consume(received(ALICE, 'hi there'));
    await consume(received(BOB, 'what is the PRICE?'));

    expect((await replies()).map((m) => [m.chatId, m.body, m.metadata])).toEqual([
      [ALICE, 'Hello!', { autoreply: fallback.id }],
      [BOB, 'Prices: see our site.', { autoreply: price.id }],
    ]);
  });

  it('never answers with a disabled rule', async () => {
    await rule(1, { enabled: false, replyText: 'disabled' });

    await consume(received(ALICE));
    expect(await replies()).toEqual([]);

    await rule(2, { replyText: 'enabled' });
    await consume(received(ALICE));
    expect((await replies()).map((m) => m.body)).toEqual(['enabled']);
  });

  it('keeps quiet in a chat during the cooldown, answers other chats, and again once it ended', async () => {
    await rule(1, { cooldownSeconds: 60 });

    await consume(received(ALICE, 'first'));
    clock.advance(59_000);
    await consume(received(ALICE, 'within the cooldown'));
    await consume(received(BOB, 'another chat'));
    expect((await replies()).map((m) => m.chatId)).toEqual([ALICE, BOB]);

    clock.advance(1_000);
    await consume(received(ALICE, 'cooldown over'));
    expect((await replies()).map((m) => m.chatId)).toEqual([ALICE]);
  });

  it('answers every message when the cooldown is 0', async () => {
    await rule(1, { cooldownSeconds: 0 });

    for (const body of ['one', 'two', 'three']) await consume(received(ALICE, body));

    expect(await replies()).toHaveLength(3);
  });

  it('lets the next matching rule answer while an earlier one cools down in the chat', async () => {
    await rule(1, { replyText: 'first rule', cooldownSeconds: 60 });
    await rule(2, { replyText: 'second rule', cooldownSeconds: 60 });

    for (const body of ['one', 'two', 'three']) await consume(received(ALICE, body));

    expect((await replies()).map((m) => m.body)).toEqual(['first rule', 'second rule']);
  });

  it.each([
    ['the account’s own message', () => received(ALICE, 'x', { fromMe: true })],
    ['a group message', () => received('120363000000000001@g.us', 'x', { isGroup: true, author: ALICE })],
    ['a status post', () => received('status@broadcast')],
    ['a broadcast list', () => received('1700000000@broadcast')],
    ['a newsletter post', () => received('120363000000000002@newsletter')],
  ])('never answers %s', async (_name, event) => {
    await rule(1, { cooldownSeconds: 0 });

    await consume(event());

    expect(await replies()).toEqual([]);
  });

  it('considers message.received only', async () => {
    await rule(1, { cooldownSeconds: 0 });
    const incoming = received(ALICE);

    await consume({ ...incoming, event: 'message.sent' } as GatewayEvent);

    expect(await replies()).toEqual([]);
  });

  it('never answers an autoreply another session of this gateway sent, and claims no cooldown for it', async () => {
    const sibling = aSession({ status: 'ready', phone: '15550004444' });
    await data.sessions.create(sibling);
    const theirs = aMessage({ sessionId: sibling.id, chatId: `${OWN_PHONE}@c.us`, from: '15550004444@c.us' });
    await data.messages.insert({ ...theirs, metadata: { autoreply: randomUUID() } });
    const plain = aMessage({ sessionId: sibling.id, chatId: `${OWN_PHONE}@c.us`, from: '15550004444@c.us' });
    await data.messages.insert(plain);
    await rule(1, { cooldownSeconds: 60 });

    await consume(received('15550004444@c.us', 'auto', { id: theirs.waMessageId ?? '' }));
    expect(await replies()).toEqual([]);

    // The sibling's ordinary message (an API send) is answered like anyone's: no cooldown was taken above.
    await consume(received('15550004444@c.us', 'typed', { id: plain.waMessageId ?? '' }));
    expect((await replies()).map((m) => m.chatId)).toEqual(['15550004444@c.us']);
  });

  it('recognises the autoreplies of a session linked since, once it authenticated', async () => {
    await rule(1, { cooldownSeconds: 0 });
    // The first message builds the guard's view of our numbers, without the sibling.
    await consume(received(ALICE));
    expect(await replies()).toHaveLength(1);
    const sibling = aSession({ status: 'ready', phone: '15550004444' });
    await data.sessions.create(sibling);
    const theirs = aMessage({ sessionId: sibling.id, chatId: `${OWN_PHONE}@c.us`, from: '15550004444@c.us' });
    await data.messages.insert({ ...theirs, metadata: { autoreply: randomUUID() } });

    await consume({
      event: 'session.authenticated',
      sessionId: sibling.id,
      occurredAt: clock.now().toISOString(),
      data: { sessionId: sibling.id, phone: '15550004444', pushName: null },
    });
    await consume(received('15550004444@c.us', 'auto', { id: theirs.waMessageId ?? '' }));

    expect(await replies()).toEqual([]);
  });

  it('sends nothing, and says so, when the session is no longer ready', async () => {
    await rule(1);
    await data.sessions.update(session.id, { status: 'disconnected' });

    await expect(consume(received(ALICE))).resolves.toBeUndefined();

    expect(await replies()).toEqual([]);
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('logs a failing store instead of throwing into the engine', async () => {
    data.automationRules.listBySession = async () => {
      throw new Error('store down');
    };

    await expect(consume(received(ALICE))).resolves.toBeUndefined();

    expect(logged).toContainEqual({
      level: 'error',
      fields: expect.objectContaining({ sessionId: session.id, err: expect.any(Error) }),
      message: 'autoreply evaluation failed',
    });
  });
});

describe('no autoreply without rules', () => {
  it('stores and queues nothing', async () => {
    await consume(received(ALICE));

    expect(await replies()).toEqual([]);
    expect(logged).toEqual([]);
  });
});
