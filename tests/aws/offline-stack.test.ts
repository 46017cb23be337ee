/**
 * The aws mode on this machine (scripts/offline-stack.mjs, what `npm run offline` runs): serverless offline serving
 * serverless.yml's functions, DynamoDB Local, the SQS emulator and one host with the test engine. Checks what only
 * this path shows: the routes of serverless.yml reach their functions, the admin key comes from
 * BOOTSTRAP_ADMIN_KEY, a command travels function → SQS → host, an owner-directed call reaches the host over RPC,
 * a webhook job travels SQS → delivery function → receiver (the offline SQS trigger), and a route nothing claims
 * answers the standard 404 body.
 */
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDbAuthStateStore } from '#shared/adapters/dynamodb/dynamodb-auth-state-store.js';
import { SqsQueue } from '#shared/adapters/sqs/sqs-queue.js';
import { WebhookJobQueue } from '#shared/webhooks/webhook-job-queue.js';
import { startScriptedReceiver, until, WHSEC_SECRET } from '#tests/helpers/scripted-receiver.js';

interface OfflineStack {
  url: string;
  apiKey: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  queues: { standardQueueUrl: string };
  tablePrefix: string;
  stop(): Promise<void>;
}
interface OfflineStackScript {
  freePort(): Promise<number>;
  generateAdminKey(): string;
  startOffline(options: Record<string, unknown>): Promise<OfflineStack>;
}

let stack: OfflineStack;
let key: string;

beforeAll(async () => {
  const script = fileURLToPath(new URL('../../scripts/offline-stack.mjs', import.meta.url));
  const offline = (await import(script)) as OfflineStackScript;
  key = offline.generateAdminKey();
  stack = await offline.startOffline({
    port: await offline.freePort(),
    tablePrefix: `jest-${process.pid}-`,
    bootstrapAdminKey: key,
    // The test's webhook receiver listens on 127.0.0.1, which the SSRF guard lets through only when told to.
    env: { ENGINE: 'test', LOG_LEVEL: 'warn', SSRF_ALLOWED_HOSTS: '127.0.0.1' },
  });
}, 240_000);

afterAll(async () => {
  await stack?.stop();
}, 60_000);

async function call(method: string, path: string, body?: unknown, apiKey: string | null = key) {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

it('serves every resource group through its own function', async () => {
  expect((await call('GET', '/api/health/ready', undefined, null)).status).toBe(200);
  expect((await call('GET', '/api/openapi.json', undefined, null)).body.openapi).toMatch(/^3\.1/);
  expect((await call('GET', '/api/auth/api-keys')).status).toBe(200);
  expect((await call('GET', '/api/audit')).body).toHaveProperty('total');
  expect((await call('GET', '/api/sessions', undefined, null)).body).toMatchObject({
    statusCode: 401,
    code: 'UNAUTHORIZED',
  });
  expect((await call('GET', '/api/no-such-route')).body).toMatchObject({
    statusCode: 404,
    code: 'ROUTE_NOT_FOUND',
  });
});

it('starts a session on the host through the queue and asks the host for its QR', async () => {
  const created = await call('POST', '/api/sessions', { name: 'offline-stack' });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  expect((await call('POST', `/api/sessions/${id}/start`)).status).toBe(200);
  let status = 'initializing';
  for (let i = 0; i < 150 && status !== 'qr_ready'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    status = (await call('GET', `/api/sessions/${id}`)).body.status;
  }
  expect(status).toBe('qr_ready');
  expect((await call('GET', `/api/sessions/${id}/qr`)).body.qrCode).toMatch(/^data:image\/png;base64,/);
  expect((await call('GET', `/api/sessions/${id}/messages`)).body).toEqual({ messages: [], total: 0 });
  expect((await call('DELETE', `/api/sessions/${id}`)).status).toBe(204);
}, 60_000);

it('deleting a session no host runs wipes its credentials in the DynamoDB auth state, from the function', async () => {
  const created = await call('POST', '/api/sessions', { name: 'offline-unowned' });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const client = new DynamoDBClient({
    endpoint: stack.dynamodbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const authState = new DynamoDbAuthStateStore({ client, tablePrefix: stack.tablePrefix });
  try {
    // As a host leaves them after a stop: linked credentials and a key, and no owner on the row.
    await authState.writeCredentials(id, JSON.stringify({ me: { id: '15550001111:1@s.whatsapp.net' } }));
    await authState.writeKeys(id, [{ category: 'session', id: 'peer.0', value: '{"k":1}' }]);
    expect(await authState.hasCredentials(id)).toBe(true);
    expect((await call('DELETE', `/api/sessions/${id}`)).status).toBe(204);
    expect(await authState.hasCredentials(id)).toBe(false);
    expect(await authState.readKeys(id, 'session', ['peer.0'])).toEqual(new Map());
  } finally {
    await authState.close();
    client.destroy();
  }
}, 60_000);

it('a job on the webhook queue reaches its receiver through the delivery function, signed, and leaves the queue', async () => {
  const receiver = await startScriptedReceiver();
  const client = new SQSClient({
    endpoint: stack.sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const created = await call('POST', '/api/sessions', { name: 'offline-webhooks' });
    const id = created.body.id as string;
    const webhook = await call('POST', `/api/sessions/${id}/webhooks`, {
      url: receiver.url,
      events: ['session.status'],
      secret: WHSEC_SECRET,
    });
    expect(webhook.status).toBe(201);
    const queue = new SqsQueue({ client, queueUrl: stack.queues.standardQueueUrl, fifo: false });
    await new WebhookJobQueue(queue).enqueueEvent({
      event: 'session.status',
      sessionId: id,
      occurredAt: new Date().toISOString(),
      data: { sessionId: id, status: 'ready' },
    });
    await until(() => receiver.received.length === 1, 60_000);
    expect(receiver.received[0]?.verified).toBe(true);
    expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({
      event: 'session.status',
      sessionId: id,
    });
    await until(async () => (await queue.receive({ maxMessages: 10 })).length === 0, 10_000);
    expect((await call('DELETE', `/api/sessions/${id}`)).status).toBe(204);
  } finally {
    client.destroy();
    await receiver.close();
  }
}, 90_000);
