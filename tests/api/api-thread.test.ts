/**
 * API_THREAD=true: the API in a worker thread of its own, the host in the gateway's main thread, each on its own
 * connections to the same SQLite files. What crosses between them is checked here: the API is served from the other
 * thread; a send's outcome comes back from the host within the wait; a
 * webhook created through the API is used by the host's deliveries at once, though the host had cached the session's
 * webhooks just before; a host operation's AppError keeps its status and code; one scrape shows both threads'
 * metrics; closing ends the thread; a restart keeps the data. (The jest project `api-thread` also runs a selection of
 * the API suite in this mode.)
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_THREAD_NAME } from '#embedded/api-thread-host.js';
import { CHECKPOINTER_THREAD_NAME } from '#shared/adapters/sqlite/sqlite-wal-checkpointer.js';
import { embeddedOnly, startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { linkedSession } from './sessions-support.js';
import { createWebhook, type Receiver, startReceiver } from './webhooks-support.js';

const CONTACT = '15557791001@c.us';
const METRICS_TOKEN = 'metrics-token-of-the-api-thread-test';

/** Threads of this process the OS names `name`. */
const threadsNamed = (name: string) =>
  fs.readdirSync('/proc/self/task').filter((tid) => {
    try {
      return fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === name;
    } catch {
      return false;
    }
  }).length;

embeddedOnly(describe, 'API_THREAD is an embedded-mode setting')('the API in a thread of its own', () => {
  let gw: TestGateway;
  let receiver: Receiver;
  let sessionId: string;
  const inboundCount = { n: 0 };
  /** Ids of the message.received events the host published. */
  const published: string[] = [];

  /** A text from the contact, through the test engine; answers its id. */
  const inbound = () => {
    const waMessageId = `IN-THREAD-${++inboundCount.n}`;
    gw.network.deliverInbound(sessionId, {
      waMessageId,
      chatId: CONTACT,
      from: CONTACT,
      to: '15550006666@c.us',
      author: null,
      body: `hello ${inboundCount.n}`,
      type: 'text',
      timestamp: 1_790_000_000 + inboundCount.n,
      pushName: 'Ann',
    });
    return waMessageId;
  };
  const receivedIds = () =>
    receiver.received.map((r) => String((JSON.parse(r.body) as { data: { id?: string } }).data.id));

  beforeAll(async () => {
    receiver = await startReceiver();
    gw = await startTestGateway({
      API_THREAD: 'true',
      SEND_WAIT_MS: '10000',
      SSRF_ALLOWED_HOSTS: '127.0.0.1',
      METRICS_TOKEN,
    });
    sessionId = (await linkedSession(gw, {}, { phone: '15550006666', pushName: 'Me' })).id;
    gw.gateway.events.subscribe((event) => {
      if (event.event === 'message.received') published.push(String(event.data.id));
    });
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
  });

  it('serves the API from a worker thread', async () => {
    expect(gw.gateway.apiThreadId).toEqual(expect.any(Number));
    // Counted by name: other files' gateways in this jest process start and end threads of their own.
    expect(threadsNamed(API_THREAD_NAME)).toBe(1);
    // One checkpointer for the process (the API thread's connections leave theirs to it); one a file before this
    // one left may still be ending.
    await waitFor(() => threadsNamed(CHECKPOINTER_THREAD_NAME) === 1);
  });

  it('answers a send with its settled row well within the wait: the host heard the queue and told the outcome', async () => {
    const started = performance.now();
    const res = await gw.request('POST', `/api/sessions/${sessionId}/messages/send-text`, {
      body: { chatId: CONTACT, text: 'across threads' },
    });
    // The wait is 10 s: an outcome that never crossed would show as seconds here. (That the host's consumer is woken
    // at once, not at its next poll, is shown by tests/contract/sqlite-queue.test.ts.)
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: 'across threads', status: 'sent', direction: 'outgoing' });
    expect((gw.network.sent.get(sessionId) ?? []).at(-1)).toMatchObject({
      waMessageId: res.body.waMessageId,
      content: { type: 'text', text: 'across threads' },
    });
  });

  it("uses a webhook created through the API for the host's next event, though the host had cached none", async () => {
    // The host's delivery reads the session's webhooks (none yet) and keeps that answer for 5 s.
    const first = inbound();
    await waitFor(() => published.includes(first));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const webhook = await createWebhook(gw, sessionId, { url: receiver.url, events: ['message.received'] });
    const second = inbound();
    await waitFor(() => receivedIds().includes(second), 2_000);
    expect(receivedIds()).not.toContain(first);

    // Turned off through the API: the host stops delivering to it at once as well.
    const off = await gw.request('PUT', `/api/sessions/${sessionId}/webhooks/${webhook.id}`, {
      body: { active: false },
    });
    expect(off.status).toBe(200);
    const third = inbound();
    await waitFor(async () => {
      const history = await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${CONTACT}`);
      return history.body.messages.some((m: { waMessageId: string }) => m.waMessageId === third);
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receivedIds()).not.toContain(third);
  });

  it("keeps a host operation's error code across the threads", async () => {
    const created = await gw.createSession();
    const res = await gw.request('GET', `/api/sessions/${created.id}/qr`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'QR_NOT_AVAILABLE' });
  });

  it("shows the host thread's series and the API thread's in one scrape", async () => {
    const res = await gw.request('GET', '/api/metrics', {
      key: null,
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    // Engines run in the host's thread; requests are counted in the API's.
    expect(res.text).toMatch(/^waygate_active_engines 1$/m);
    expect(res.text).toMatch(
      /^waygate_http_requests_total\{method="POST",route="\/api\/sessions\/\{sessionId\}\/messages\/send-text",status="201"\} 1$/m,
    );
    expect(res.text.match(/^# TYPE waygate_process_resident_memory_bytes gauge$/gm)).toHaveLength(1);
  });

  it('ends the thread on close, and a restart serves the same data', async () => {
    const before = await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${CONTACT}`);
    gw = await gw.restart();
    expect(threadsNamed(API_THREAD_NAME)).toBe(1);
    const after = await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${CONTACT}`);
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(before.body.total);
    await gw.close();
    expect(threadsNamed(API_THREAD_NAME)).toBe(0);
    // The checkpointer ends on its own once its last file is released: waited for, not assumed gone.
    await waitFor(() => threadsNamed(CHECKPOINTER_THREAD_NAME) === 0);
  });
});
