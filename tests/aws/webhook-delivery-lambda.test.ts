/**
 * The webhook delivery Lambda's handler against the local-aws-sqs emulator, fed the way the SQS event source
 * mapping feeds it: a batch of received messages becomes an SQS event, and the messages the handler does not report
 * in `batchItemFailures` are deleted. Stores are the memory fakes (the DynamoDB adapters pass the same contract
 * suites); receivers are real local HTTP servers verifying both signatures.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createSqsServer } from 'local-aws-sqs';
import { createWebhookDeliveryHandler } from '#functions/webhook-delivery/handler.js';
import { GuardedHttpClient } from '#shared/adapters/http/guarded-http-client.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { createMemoryDataStore, MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { SqsQueue } from '#shared/adapters/sqs/sqs-queue.js';
import { createSqsQueuePair } from '#shared/adapters/sqs/sqs-queues.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { loadEnv } from '#shared/config/env.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { systemClock } from '#shared/ports/clock.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { createQueuedWebhookDelivery } from '#shared/webhooks/queued-delivery.js';
import { WebhookJobQueue } from '#shared/webhooks/webhook-job-queue.js';
import { aSession, aWebhook } from '#tests/helpers/builders.js';
import { startScriptedReceiver, until, WHSEC_SECRET } from '#tests/helpers/scripted-receiver.js';

let server: Server;
let client: SQSClient;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await createSqsServer({ port: 0, hostname: '127.0.0.1', emulateQueueCreationLifecycle: false });
  client = new SQSClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

afterAll(async () => {
  client.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function setUp() {
  // A 1 s visibility timeout lets a reported record come back within the test.
  const pair = await createSqsQueuePair(client, {
    name: `waygate-delivery-${randomUUID().slice(0, 8)}`,
    fifo: false,
    visibilityTimeoutSeconds: 1,
    maxReceiveCount: 3,
  });
  const queue = new SqsQueue({ client, queueUrl: pair.url, fifo: false });
  const data = createMemoryDataStore();
  const auditStore = new MemoryAuditLogStore();
  const audit = new AuditRecorder(auditStore, systemClock, silentLogger, createMetrics());
  const http = new GuardedHttpClient({ allowedHosts: ['127.0.0.1'] });
  // WEBHOOK_RETRY_DELAY 1 ms: a retry's delay rounds up to the queue's smallest, 1 s.
  const env = loadEnv({ SSRF_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAY: '1' });
  const delivery = createQueuedWebhookDelivery({
    env,
    data,
    media: new MemoryMediaStorage(),
    audit,
    queue,
    http,
    clock: systemClock,
    logger: silentLogger,
    version: 'test',
  });
  const handler = createWebhookDeliveryHandler(() => ({
    delivery,
    logger: silentLogger,
    flush: () => audit.flush(),
  }));
  closers.push(async () => {
    http.close();
    for (const url of [pair.url, pair.deadLetterUrl]) {
      if (url) await client.send(new DeleteQueueCommand({ QueueUrl: url }));
    }
  });

  /**
   * One invocation as the event source mapping makes it: receive a batch, hand it over, delete what succeeded.
   * Short polls: the emulator holds a long poll for its whole wait even when messages are there.
   */
  async function invoke(): Promise<{ event: SQSEvent; response: SQSBatchResponse }> {
    const messages = await queue.receive({ maxMessages: 10, waitTimeSeconds: 0 });
    const event: SQSEvent = {
      Records: messages.map((message) => ({
        messageId: message.id,
        receiptHandle: message.receiptHandle,
        body: message.body,
        attributes: {
          ApproximateReceiveCount: String(message.receiveCount),
          SentTimestamp: String(Date.now()),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:local',
        awsRegion: 'us-east-1',
      })),
    };
    const response = await handler(event);
    const failed = new Set(response.batchItemFailures.map((failure) => failure.itemIdentifier));
    for (const message of messages) if (!failed.has(message.id)) await queue.delete(message.receiptHandle);
    return { event, response };
  }

  async function sessionWithWebhook(statuses: number[] = []) {
    const session = aSession({ status: 'ready' });
    await data.sessions.create(session);
    const receiver = await startScriptedReceiver(statuses);
    closers.push(receiver.close);
    await data.webhooks.create(
      aWebhook({ sessionId: session.id, url: receiver.url, events: ['*'], secret: WHSEC_SECRET }),
      { maxPerSession: 0 },
    );
    const status: GatewayEvent = {
      event: 'session.status',
      sessionId: session.id,
      occurredAt: new Date().toISOString(),
      data: { sessionId: session.id, status: 'ready' },
    };
    return { session, receiver, status };
  }

  return { queue, data, jobs: new WebhookJobQueue(queue), invoke, sessionWithWebhook };
}

describe('webhook delivery function', () => {
  it('reports only the record that met an unavailable store; it comes back and is delivered then', async () => {
    const { queue, data, jobs, invoke, sessionWithWebhook } = await setUp();
    const healthy = await sessionWithWebhook();
    const unlucky = await sessionWithWebhook();
    const listActive = data.webhooks.listActive.bind(data.webhooks);
    let storeDown = true;
    data.webhooks.listActive = async (sessionId) => {
      if (storeDown && sessionId === unlucky.session.id) {
        throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Data store is unavailable');
      }
      return listActive(sessionId);
    };
    await jobs.enqueueEvent(healthy.status);
    await jobs.enqueueEvent(unlucky.status);
    // A body that never parses: logged and not reported, so it is deleted rather than cycled into the DLQ.
    await queue.send({ body: 'not a webhook job' });

    let records: SQSEvent['Records'] = [];
    let failures: SQSBatchResponse['batchItemFailures'] = [];
    await until(async () => {
      const { event, response } = await invoke();
      records = [...records, ...event.Records];
      failures = [...failures, ...response.batchItemFailures];
      return records.length === 3;
    });
    const unluckyRecord = records.find((record) => record.body.includes(unlucky.session.id));
    expect(failures).toEqual([{ itemIdentifier: unluckyRecord?.messageId }]);
    expect(healthy.receiver.received).toHaveLength(1);
    expect(healthy.receiver.received[0]?.verified).toBe(true);
    expect(unlucky.receiver.received).toEqual([]);

    storeDown = false;
    let again: SQSEvent['Records'] = [];
    await until(async () => {
      const { event, response } = await invoke();
      expect(response.batchItemFailures).toEqual([]);
      again = [...again, ...event.Records];
      return again.length > 0;
    }, 10_000);
    expect(again.map((record) => [record.messageId, record.attributes.ApproximateReceiveCount])).toEqual([
      [unluckyRecord?.messageId, '2'],
    ]);
    expect(unlucky.receiver.received).toHaveLength(1);
    expect(unlucky.receiver.received[0]?.verified).toBe(true);
    expect((await invoke()).event.Records).toEqual([]);
  }, 20_000);

  it("puts a failed attempt's retry back on the queue with its delay, under the same ids and body", async () => {
    const { jobs, invoke, sessionWithWebhook } = await setUp();
    const { receiver, status } = await sessionWithWebhook([500]);
    await jobs.enqueueEvent(status);
    await until(async () => {
      const { response } = await invoke();
      expect(response.batchItemFailures).toEqual([]);
      return receiver.received.length === 1;
    });
    const failedAt = Date.now();
    // The retry waits out its 1 s delay on the queue before any receive gets it.
    await until(async () => (await invoke()).event.Records.length > 0, 5000);
    expect(Date.now() - failedAt).toBeGreaterThanOrEqual(900);
    const [first, retry] = receiver.received;
    expect([first?.headers['x-service-retry-count'], retry?.headers['x-service-retry-count']]).toEqual([
      '0',
      '1',
    ]);
    expect(retry?.headers['x-service-delivery-id']).toBe(first?.headers['x-service-delivery-id']);
    expect(retry?.headers['x-service-idempotency-key']).toBe(first?.headers['x-service-idempotency-key']);
    expect(retry?.body).toBe(first?.body);
    expect(retry?.verified).toBe(true);
  }, 20_000);
});
