/**
 * Send pacing over HTTP (SEND_PACING_*; openwa-facts §7.6): a spent daily allowance or cold-chat allowance answers
 * 429 SEND_PACING_LIMITED with `retryAfterSeconds` and Retry-After (no row, nothing sent), audited as
 * send_pacing_blocked; reactions and idempotent replays are never paced; sends the network refuses trip the breaker
 * (send_breaker_tripped, message_failed) until its cooldown ends; the OpenAPI document says so; and with pacing off
 * nothing is paced and nothing is written for it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ErrorBody } from '#functions/http/error-response.js';
import { withGatewayDataStore } from '#tests/helpers/gateway-data-store.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { auditOf, linkedSession, waitForAudit } from './sessions-support.js';

const ME = '15550001111';
let chats = 0;
/** A chat no test has written to. */
const newChat = () => `1555444${String(++chats).padStart(4, '0')}@c.us`;

type PacingBody = ErrorBody & { details?: Record<string, unknown> };

/** Seconds from `ms` to the next UTC midnight. */
function toMidnight(ms: number): number {
  const d = new Date(ms);
  return Math.ceil((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - ms) / 1000);
}

function apiOf(gw: () => TestGateway) {
  const post = (sessionId: string, action: string, body: unknown, headers: Record<string, string> = {}) =>
    gw().request<PacingBody & { id: string; status: string; waMessageId: string }>(
      'POST',
      `/api/sessions/${sessionId}/messages/${action}`,
      { body, headers },
    );
  const text = (sessionId: string, chatId: string, headers: Record<string, string> = {}) =>
    post(sessionId, 'send-text', { chatId, text: 'hello there' }, headers);
  const session = async () => (await linkedSession(gw(), {}, { phone: ME, pushName: 'Me' })).id;
  return { post, text, session };
}

/** Asserts a pacing refusal: its body, its Retry-After, and answers the body. */
function expectPaced(res: { status: number; body: PacingBody; headers: Headers }, rule: string): PacingBody {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({
    statusCode: 429,
    error: 'Too Many Requests',
    code: 'SEND_PACING_LIMITED',
    retryable: true,
    details: { rule },
  });
  expect(res.body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(res.body.details?.retryAfterSeconds).toBe(res.body.retryAfterSeconds);
  expect(res.headers.get('retry-after')).toBe(String(res.body.retryAfterSeconds));
  return res.body;
}

describe('messages: send pacing (SEND_PACING_ENABLED=true)', () => {
  let gw: TestGateway;
  const { post, text, session } = apiOf(() => gw);

  beforeAll(async () => {
    gw = await startTestGateway({
      SEND_PACING_ENABLED: 'true',
      SEND_PACING_WARMUP_SCHEDULE: '3,50',
      SEND_PACING_COLD_DAILY_CAP: '2,50',
      SEND_PACING_BREAKER_THRESHOLD: '2',
      SEND_PACING_BREAKER_COOLDOWN_MS: '2000',
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('refuses a send past the day’s allowance with 429 SEND_PACING_LIMITED until the next UTC day', async () => {
    const id = await session();
    const chatId = newChat();
    const first = await text(id, chatId);
    expect([first.status, first.body.status]).toEqual([201, 'sent']);
    expect((await text(id, chatId)).status).toBe(201);
    const keyed = await text(id, chatId, { 'idempotency-key': 'pace-1' });
    expect(keyed.status).toBe(201);

    const before = Date.now();
    const refused = await text(id, chatId);
    const body = expectPaced(refused, 'daily_cap');
    expect(body.message).toBe('Daily send allowance of 3 reached for a session 0 day(s) old');
    expect(body.details).toMatchObject({ allowance: 3, sentToday: 3 });
    expect(body.retryAfterSeconds).toBeGreaterThanOrEqual(toMidnight(Date.now()));
    expect(body.retryAfterSeconds).toBeLessThanOrEqual(toMidnight(before));
    // Nothing stored, nothing sent.
    const history = await gw.request(
      'GET',
      `/api/sessions/${id}/messages?chatId=${encodeURIComponent(chatId)}`,
    );
    expect(history.body.total).toBe(3);
    expect(gw.network.sent.get(id)).toHaveLength(3);

    // A replay answers the first request's message, paced or not; a refused key is given up, so it is 429 again.
    const replay = await text(id, chatId, { 'idempotency-key': 'pace-1' });
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body.id]).toEqual([
      201,
      'true',
      keyed.body.id,
    ]);
    expectPaced(await text(id, chatId, { 'idempotency-key': 'pace-2' }), 'daily_cap');
    expectPaced(await text(id, chatId, { 'idempotency-key': 'pace-2' }), 'daily_cap');
    // Reactions are not paced.
    const reaction = await post(id, 'react', { chatId, messageId: first.body.waMessageId, emoji: '👍' });
    expect(reaction.status).toBe(201);

    // Audited once per session per minute, with the caller's key.
    const [entry] = await waitForAudit(gw, 'send_pacing_blocked', id);
    expect(entry).toMatchObject({
      severity: 'warn',
      sessionId: id,
      metadata: expect.objectContaining({ rule: 'daily_cap', chatId }),
      errorMessage: body.message,
    });
    expect(entry?.apiKeyId).not.toBeNull();
    expect(await auditOf(gw, 'send_pacing_blocked', id)).toHaveLength(1);
  });

  it('caps sends to chats without history; a chat whose contact wrote first is not cold', async () => {
    const id = await session();
    expect((await text(id, newChat())).status).toBe(201);
    expect((await text(id, newChat())).status).toBe(201);
    const body = expectPaced(await text(id, newChat()), 'cold_daily_cap');
    expect(body.message).toBe('Daily allowance of 2 new conversation(s) reached for a session 0 day(s) old');
    expect(body.details).toMatchObject({ allowance: 2, coldToday: 2 });

    const contact = newChat();
    await gw.network.deliverInbound(id, {
      waMessageId: `IN-PACE-${chats}`,
      chatId: contact,
      from: contact,
      to: `${ME}@c.us`,
      author: null,
      body: 'hi, it is me',
      type: 'text',
      timestamp: Math.floor(Date.now() / 1000),
      pushName: 'Contact',
    });
    const answer = await text(id, contact);
    expect([answer.status, answer.body.status]).toEqual([201, 'sent']);
  });

  it('opens the breaker after consecutive sends the network refused, until its cooldown ends', async () => {
    const id = await session();
    const chatId = newChat();
    gw.network.refuseSends(id, true);
    for (let i = 0; i < 2; i++) {
      const failed = await text(id, chatId);
      expect([failed.status, failed.body.status]).toEqual([201, 'failed']);
    }
    const trippedAt = Date.now();
    const body = expectPaced(await text(id, chatId), 'breaker_open');
    expect(body.message).toBe('Sends are paused after a run of consecutive send failures');
    expect(body.retryAfterSeconds).toBeLessThanOrEqual(2);

    const [tripped] = await waitForAudit(gw, 'send_breaker_tripped', id);
    expect(tripped).toMatchObject({
      severity: 'warn',
      metadata: { consecutiveFailures: 2, cooldownMs: 2000 },
      errorMessage: 'Send breaker tripped after 2 consecutive send failures',
    });
    const failures = await waitForAudit(gw, 'message_failed', id, 2);
    expect(failures[0]).toMatchObject({
      severity: 'warn',
      errorMessage: 'send refused by the network',
      metadata: expect.objectContaining({ chatId, type: 'text' }),
    });

    gw.network.refuseSends(id, false);
    const sent = await waitFor(
      async () => {
        const res = await text(id, chatId);
        return res.status === 201 ? res : null;
      },
      5000,
      200,
    );
    expect(Date.now() - trippedAt).toBeGreaterThanOrEqual(1500);
    expect(sent.body.status).toBe('sent');
    const [audited] = await waitForAudit(gw, 'message_sent', id);
    expect(audited).toMatchObject({
      severity: 'info',
      metadata: expect.objectContaining({ messageId: sent.body.id }),
    });
    expect(await auditOf(gw, 'send_breaker_tripped', id)).toHaveLength(1);

    // Deleting the session deletes its pacing state.
    expect((await gw.request('DELETE', `/api/sessions/${id}`)).status).toBe(204);
    expect(await withGatewayDataStore(gw, (data) => data.sendPacing.deleteBySession(id))).toBe(0);
  });

  it('documents the 429 SEND_PACING_LIMITED of paced sends in the OpenAPI document', async () => {
    const doc = (await gw.request('GET', '/api/openapi.json', { key: null })).body;
    const responses = (action: string) =>
      doc.paths[`/api/sessions/{sessionId}/messages/${action}`].post.responses;
    for (const action of ['send-text', 'send-template', 'reply', 'forward', 'edit', 'send-location']) {
      expect(responses(action)['429'].description).toContain('SEND_PACING_LIMITED');
      expect(responses(action)['429'].headers['Retry-After']).toBeDefined();
    }
    for (const action of ['react', 'delete']) {
      expect(responses(action)['429'].description).not.toContain('SEND_PACING_LIMITED');
    }
    expect(doc.components.schemas.Error.properties.retryAfterSeconds).toMatchObject({ type: 'integer' });
  });
});

describe('messages: send pacing off (the default)', () => {
  let gw: TestGateway;
  const { text, session } = apiOf(() => gw);

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('paces nothing and writes no pacing state, past every default allowance and after refused sends', async () => {
    const id = await session();
    // The default first-day allowances are 20 sends and 5 chats without history.
    for (let i = 0; i < 22; i++) expect((await text(id, newChat())).status).toBe(201);
    gw.network.refuseSends(id, true);
    for (let i = 0; i < 6; i++) expect((await text(id, newChat())).body.status).toBe('failed');
    gw.network.refuseSends(id, false);
    expect((await text(id, newChat())).body.status).toBe('sent');
    expect(await withGatewayDataStore(gw, (data) => data.sendPacing.deleteBySession(id))).toBe(0);
    expect(await waitForAudit(gw, 'message_sent', id, 23)).toHaveLength(23);
  });
});
