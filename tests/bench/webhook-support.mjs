// Helpers of the webhook bench (webhook-reliability.mjs): receivers, webhooks and texts through the API and the
// simulator, delivery failures, polling.
import http from 'node:http';
import path from 'node:path';
import { bundleAndImport, sleep } from './baileys-support.mjs';
import { ROOT } from './support.mjs';

let receiverModule = null;
/** Bundles tests/helpers/webhook-receiver.ts (the receiver the tests use) once and imports it. */
export function loadReceiver() {
  receiverModule ??= bundleAndImport('bench-webhook-receiver', {
    entryPoints: [path.join(ROOT, 'tests/helpers/webhook-receiver.ts')],
  });
  return receiverModule;
}

/** A receiver that answers 204 at once and only counts (the fan-out phase measures the sender). */
export async function startCountingReceiver() {
  const arrivals = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(performance.now());
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    arrivals,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

export async function createWebhook(api, sessionId, url, secret) {
  const res = await api('POST', `/api/sessions/${sessionId}/webhooks`, {
    url,
    events: ['message.received'],
    retryCount: 5,
    ...(secret ? { secret } : {}),
  });
  if (res.status !== 201) throw new Error(`webhook create: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** Every contact writes `perContact` texts to `phone`, one after another (the contacts in parallel). */
export async function contactsWrite(sim, contacts, phone, perContact, label, sentAt) {
  const texts = [];
  await Promise.all(
    contacts.map(async (contact) => {
      for (let i = 0; i < perContact; i++) {
        const text = `${label} ${i} from ${contact}`;
        sentAt?.set(text, Date.now());
        const { id } = await sim.admin('POST', `/contacts/${contact}/messages`, { to: phone, text });
        texts.push({ id, text });
      }
    }),
  );
  return texts;
}

/** Polls `probe` until it answers true; `what` (a string, or a function for the latest state) names the wait. */
export async function waitUntil(probe, timeoutMs, what) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await probe()) return;
    await sleep(100);
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`,
  );
}

/** Every delivery failure of the session, all pages. */
export async function failuresOf(api, sessionId) {
  const rows = [];
  for (let offset = 0; ; offset += 100) {
    const res = await api(
      'GET',
      `/api/webhooks/delivery-failures?sessionId=${sessionId}&limit=100&offset=${offset}`,
    );
    if (res.status !== 200) throw new Error(`delivery-failures: ${res.status} ${JSON.stringify(res.body)}`);
    rows.push(...res.body);
    if (res.body.length < 100) return rows;
  }
}

/** Network id of a `message.received` delivery or failure row, from its idempotency key `msg_<session>_<id>_<hook>`. */
export const messageIdOf = (key, sessionId, webhookId) =>
  key.slice(`msg_${sessionId}_`.length, -`_${webhookId}`.length);
