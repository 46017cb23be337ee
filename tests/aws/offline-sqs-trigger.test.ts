/**
 * The offline stand-in for the webhookDelivery function's SQS trigger (scripts/offline-sqs-trigger.mjs) against the
 * local-aws-sqs emulator and a stand-in for serverless-offline's Lambda API: batches become SQS events, messages the
 * function does not report are deleted, reported ones and the batch of a failed invocation come back after their
 * visibility timeout.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { createSqsServer } from 'local-aws-sqs';
import { SqsQueue } from '#shared/adapters/sqs/sqs-queue.js';
import { createSqsQueuePair } from '#shared/adapters/sqs/sqs-queues.js';
import { until } from '#tests/helpers/scripted-receiver.js';

interface TriggerScript {
  startSqsTrigger(options: Record<string, unknown>): Promise<{ stop(): Promise<void> }>;
}

let sqs: http.Server;
let client: SQSClient;
let endpoint: string;

beforeAll(async () => {
  sqs = await createSqsServer({ port: 0, hostname: '127.0.0.1', emulateQueueCreationLifecycle: false });
  endpoint = `http://127.0.0.1:${(sqs.address() as AddressInfo).port}`;
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  client = new SQSClient({ endpoint, region: 'us-east-1', credentials });
});

afterAll(async () => {
  client.destroy();
  sqs.closeAllConnections();
  await new Promise<void>((resolve) => sqs.close(() => resolve()));
});

it('invokes the function with each batch and deletes only what it did not report', async () => {
  const pair = await createSqsQueuePair(client, {
    name: `trigger-${randomUUID().slice(0, 8)}`,
    fifo: false,
    visibilityTimeoutSeconds: 1,
  });
  const queue = new SqsQueue({ client, queueUrl: pair.url, fifo: false });
  // The function: reports `retry` records once, fails the first invocation that holds `crash`, takes the rest.
  const seen: { body: string; receiveCount: string; path: string }[] = [];
  let reported = false;
  let crashed = false;
  const lambda = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const event = JSON.parse(raw) as SQSEvent;
      for (const record of event.Records) {
        seen.push({
          body: record.body,
          receiveCount: record.attributes.ApproximateReceiveCount,
          path: String(req.url),
        });
      }
      if (!crashed && event.Records.some((r) => r.body === 'crash')) {
        crashed = true;
        return void res
          .writeHead(200, { 'X-Amz-Function-Error': 'Unhandled' })
          .end('{"errorMessage":"boom"}');
      }
      const failures = reported ? [] : event.Records.filter((r) => r.body === 'retry');
      if (failures.length > 0) reported = true;
      res
        .writeHead(200)
        .end(JSON.stringify({ batchItemFailures: failures.map((r) => ({ itemIdentifier: r.messageId })) }));
    });
  });
  await new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', resolve));
  const script = fileURLToPath(new URL('../../scripts/offline-sqs-trigger.mjs', import.meta.url));
  const { startSqsTrigger } = (await import(script)) as TriggerScript;
  const trigger = await startSqsTrigger({
    sqsEndpoint: endpoint,
    queueUrl: pair.url,
    lambdaUrl: `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`,
    functionName: 'waygate-offline-webhookDelivery',
    pollers: 1,
    pollMs: 20,
  });
  try {
    const times = (body: string) => seen.filter((s) => s.body === body).length;
    await queue.send({ body: 'ok' });
    await queue.send({ body: 'retry' });
    await until(() => times('retry') === 2, 10_000);
    await queue.send({ body: 'crash' });
    await until(() => times('crash') === 2, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(seen.find((s) => s.body === 'retry' && s.receiveCount === '2')).toBeDefined();
    expect(times('ok')).toBe(1);
    expect(times('retry')).toBe(2);
    expect(times('crash')).toBe(2);
    expect(
      seen.every((s) => s.path === '/2015-03-31/functions/waygate-offline-webhookDelivery/invocations'),
    ).toBe(true);
    expect(await queue.receive({ maxMessages: 10 })).toEqual([]);
  } finally {
    await trigger.stop();
    lambda.closeAllConnections();
    await new Promise<void>((resolve) => lambda.close(() => resolve()));
  }
}, 20_000);
