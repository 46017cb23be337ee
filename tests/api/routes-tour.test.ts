/**
 * One successful call of every documented operation, in the order a client would make them, on one gateway. The
 * other API files test each route in depth; this one is what the project `api-offline` runs to prove the routes
 * through serverless offline (serverless.yml's routes, its bundles, API Gateway's events): its route ledger fails a
 * run in which an operation was never answered with a success, so a new route is added here. In the projects `api`
 * and `api-aws` it is a cheap smoke test of the whole surface.
 */
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ENGINE_OPERATION_ROWS } from '#shared/domain/engine-operations/engine-operations.js';
import { operationRequest, seedOperationExamples } from '#tests/helpers/engine-operation-requests.js';
import {
  type ApiResponse,
  startTestGateway,
  type TestGateway,
  waitFor,
} from '#tests/helpers/test-gateway.js';
import { linkedSession, startTo } from './sessions-support.js';
import { HOOK_HOST, type Receiver, startReceiver } from './webhooks-support.js';

const METRICS_TOKEN = 'routes-tour-metrics-token';
const CONTACT = '15557770001@c.us';
const ME = '15550004444';
/** Files whose first bytes are what each media kind's type says (a PNG, an MP4, a WebP, an Ogg, a PDF). */
const FILES = {
  image: {
    bytes: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]),
    type: 'image/png',
  },
  video: {
    bytes: Buffer.concat([Buffer.from('0000001866747970', 'hex'), Buffer.alloc(64, 2)]),
    type: 'video/mp4',
  },
  sticker: {
    bytes: Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4, 0), Buffer.from('WEBP'), Buffer.alloc(64, 3)]),
    type: 'image/webp',
  },
  audio: { bytes: Buffer.concat([Buffer.from('OggS'), Buffer.alloc(64, 4)]), type: 'audio/ogg' },
  document: {
    bytes: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(64, 5)]),
    type: 'application/pdf',
  },
};

describe('every route once', () => {
  let gw: TestGateway;
  let receiver: Receiver;
  let sessionId: string;
  const ok = <T>(res: ApiResponse<T>, status: number): T => {
    if (res.status !== status)
      throw new Error(`expected ${status}, got ${res.status}: ${res.text.slice(0, 300)}`);
    return res.body;
  };
  const call = (method: string, path: string, body?: unknown) =>
    gw.request(method, path, body === undefined ? {} : { body });
  const messages = (action: string, body: unknown) =>
    call('POST', `/api/sessions/${sessionId}/messages/${action}`, body);

  beforeAll(async () => {
    receiver = await startReceiver();
    gw = await startTestGateway({ METRICS_TOKEN, SSRF_ALLOWED_HOSTS: `${HOOK_HOST},127.0.0.1` });
    sessionId = (await linkedSession(gw, {}, { phone: ME, pushName: 'Tour' })).id;
    // The people the engine operations' examples name are on the test network.
    gw.network.directory.register('15550002222', '880001', 'https://pictures.example/a.jpg');
  });
  afterAll(async () => {
    await gw.close();
    await receiver.close();
  });

  it('public, health, docs and metrics', async () => {
    ok(await gw.request('GET', '/api/health', { key: null }), 200);
    ok(await gw.request('GET', '/api/health/ready', { key: null }), 200);
    ok(await gw.request('GET', '/api/openapi.json', { key: null }), 200);
    ok(await gw.request('GET', '/api/docs', { key: null }), 200);
    const metrics = await gw.request('GET', '/api/metrics', {
      key: null,
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    ok(metrics, 200);
  });

  it('API keys', async () => {
    const created = ok(await call('POST', '/api/auth/api-keys', { name: 'tour', role: 'viewer' }), 201);
    ok(await call('GET', '/api/auth/api-keys'), 200);
    ok(await call('GET', `/api/auth/api-keys/${created.id}`), 200);
    ok(await call('PUT', `/api/auth/api-keys/${created.id}`, { name: 'tour-renamed' }), 200);
    ok(await gw.request('POST', '/api/auth/validate', { key: created.apiKey }), 200);
    ok(await call('POST', `/api/auth/api-keys/${created.id}/revoke`), 200);
    ok(await call('DELETE', `/api/auth/api-keys/${created.id}`), 204);
  });

  it('sessions: list, read, stats, config, proxy, QR, pairing code, stop, force-kill, logout, delete', async () => {
    ok(await call('GET', '/api/sessions'), 200);
    ok(await call('GET', `/api/sessions/${sessionId}`), 200);
    ok(await call('GET', '/api/sessions/stats/overview'), 200);
    ok(await call('GET', `/api/sessions/${sessionId}/config`), 200);
    ok(await call('PATCH', `/api/sessions/${sessionId}/config`, { autoRejectCalls: false }), 200);
    ok(await call('GET', `/api/sessions/${sessionId}/proxy`), 200);
    ok(await call('PATCH', `/api/sessions/${sessionId}/proxy`, { proxyUrl: null }), 200);
    ok(await call('GET', `/api/sessions/${sessionId}/chats`), 200);
    const fresh = ok(await call('POST', '/api/sessions', { name: 'tour-fresh' }), 201);
    await startTo(gw, fresh.id, 'qr_ready');
    ok(await call('GET', `/api/sessions/${fresh.id}/qr`), 200);
    ok(await call('POST', `/api/sessions/${fresh.id}/pairing-code`, { phoneNumber: '15550009876' }), 201);
    ok(await call('POST', `/api/sessions/${fresh.id}/stop`), 200);
    await startTo(gw, fresh.id, 'qr_ready');
    ok(await call('POST', `/api/sessions/${fresh.id}/force-kill`), 200);
    gw.network.storeCredentials(fresh.id, { phone: '15550009877', pushName: null });
    await startTo(gw, fresh.id, 'ready');
    ok(await call('POST', `/api/sessions/${fresh.id}/logout`), 200);
    ok(await call('DELETE', `/api/sessions/${fresh.id}`), 204);
  });

  it.each(ENGINE_OPERATION_ROWS.map((row) => [row.name, row] as const))(
    'the engine operation %s, with its example input',
    async (_, row) => {
      seedOperationExamples(gw.network, sessionId, ME);
      const request = operationRequest(row, sessionId);
      ok(await call(request.method, request.path, request.body), row.http.success);
    },
  );

  it("every kind of send, history (a chat's too), search, media and reactions", async () => {
    const text = ok(await messages('send-text', { chatId: CONTACT, text: 'tour text' }), 201);
    for (const kind of ['image', 'video', 'sticker', 'audio', 'document'] as const) {
      const { bytes, type } = FILES[kind];
      ok(
        await messages(`send-${kind}`, { chatId: CONTACT, data: bytes.toString('base64'), mimetype: type }),
        201,
      );
    }
    ok(await messages('send-location', { chatId: CONTACT, latitude: 52.52, longitude: 13.405 }), 201);
    ok(
      await messages('send-contact', { chatId: CONTACT, contactNumber: '15557770009', contactName: 'Bob' }),
      201,
    );
    ok(
      await messages('reply', { chatId: CONTACT, quotedMessageId: text.waMessageId, text: 'tour reply' }),
      201,
    );
    ok(
      await messages('forward', {
        fromChatId: CONTACT,
        toChatId: '15557770002@c.us',
        messageId: text.waMessageId,
      }),
      201,
    );
    ok(await messages('react', { chatId: CONTACT, messageId: text.waMessageId, emoji: '👍' }), 201);
    ok(
      await messages('edit', { chatId: CONTACT, messageId: text.waMessageId, body: 'tour text, edited' }),
      201,
    );
    ok(
      await call('GET', `/api/sessions/${sessionId}/messages/${CONTACT}/${text.waMessageId}/reactions`),
      200,
    );
    const history = ok(
      await call('GET', `/api/sessions/${sessionId}/messages?chatId=${CONTACT}&limit=50`),
      200,
    );
    const image = history.messages.find((m: { type: string }) => m.type === 'image');
    ok(
      await call('GET', `/api/sessions/${sessionId}/messages/${CONTACT}/history?limit=20&includeMedia=true`),
      200,
    );
    ok(await call('GET', `/api/sessions/${sessionId}/messages/${CONTACT}/${image.waMessageId}/media`), 200);
    ok(await call('GET', `/api/sessions/${sessionId}/messages/search?q=tour`), 200);
    ok(await messages('delete', { chatId: CONTACT, messageId: text.id }), 201);
  });

  it('status updates: posting each kind, the list, a contact’s, a file, and a delete', async () => {
    const base = `/api/sessions/${sessionId}/status`;
    const recipients = [CONTACT];
    const text = ok(await call('POST', `${base}/send-text`, { text: 'tour status', recipients }), 201);
    for (const [kind, file] of [
      ['image', FILES.image],
      ['video', FILES.video],
      ['voice', FILES.audio],
    ] as const) {
      const body = { data: file.bytes.toString('base64'), mimetype: file.type, recipients };
      const posted = ok(await call('POST', `${base}/send-${kind}`, body), 201);
      ok(await call('GET', `${base}/${posted.statusId}/media`), 200);
    }
    ok(await call('GET', base), 200);
    ok(await call('GET', `${base}/${CONTACT}`), 200);
    ok(await call('DELETE', `${base}/${text.statusId}`), 200);
  });

  it('templates, a templated send, batches and their cancel', async () => {
    const base = `/api/sessions/${sessionId}/templates`;
    const template = ok(await call('POST', base, { name: 'tour', body: 'Hi {{name}}' }), 201);
    ok(await call('GET', base), 200);
    ok(await call('GET', `${base}/${template.id}`), 200);
    ok(await call('PUT', `${base}/${template.id}`, { body: 'Hello {{name}}' }), 200);
    ok(
      await messages('send-template', {
        chatId: CONTACT,
        templateId: template.id,
        variables: { name: 'Ann' },
      }),
      201,
    );
    ok(await call('DELETE', `${base}/${template.id}`), 204);
    const items = [1, 2, 3].map((n) => ({ chatId: CONTACT, type: 'text', content: { text: `bulk ${n}` } }));
    const options = { delayBetweenMessages: 60_000 };
    const batch = ok(await messages('send-bulk', { batchId: 'tour-batch', messages: items, options }), 202);
    ok(await call('GET', `/api/sessions/${sessionId}/messages/batch/${batch.batchId}`), 200);
    ok(await call('POST', `/api/sessions/${sessionId}/messages/batch/${batch.batchId}/cancel`), 200);
  });

  it('webhooks, their test delivery and delivery failures; autoreply rules; audit', async () => {
    const base = `/api/sessions/${sessionId}/webhooks`;
    const hook = ok(await call('POST', base, { url: receiver.url, events: ['message.received'] }), 201);
    ok(await call('GET', base), 200);
    ok(await call('GET', `${base}/${hook.id}`), 200);
    ok(await call('PUT', `${base}/${hook.id}`, { events: ['message.received', 'message.sent'] }), 200);
    ok(await call('POST', `${base}/${hook.id}/test`), 200);
    await waitFor(() => receiver.received.length > 0);
    ok(await call('GET', '/api/webhooks'), 200);
    ok(await call('GET', '/api/webhooks/delivery-failures'), 200);
    ok(await call('DELETE', `${base}/${hook.id}`), 204);
    const rules = `/api/sessions/${sessionId}/automation-rules`;
    const rule = ok(await call('POST', rules, { name: 'tour', replyText: 'Thanks' }), 201);
    ok(await call('GET', rules), 200);
    ok(await call('GET', `${rules}/${rule.id}`), 200);
    ok(await call('PUT', `${rules}/${rule.id}`, { replyText: 'Thank you' }), 200);
    ok(await call('DELETE', `${rules}/${rule.id}`), 204);
    ok(await call('GET', '/api/audit'), 200);
    ok(await call('GET', '/api/stats/overview'), 200);
    ok(await call('GET', '/api/stats/messages?period=7d'), 200);
    ok(await call('GET', `/api/stats/sessions/${sessionId}`), 200);
    ok(await call('GET', '/api/infra/status'), 200);
    ok(await call('GET', '/api/infra/config'), 200);
    ok(await call('PUT', '/api/infra/config', { RATE_LIMIT_WINDOW_MS: 60_000 }), 200);
  });

  it('data export and import (last: the import replaces what the tour wrote)', async () => {
    const document = ok(await call('GET', '/api/infra/export-data'), 200);
    ok(await call('POST', '/api/infra/import-data', { ...document, stopSessions: true }), 200);
  });
});
