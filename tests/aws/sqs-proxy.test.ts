/**
 * The multi-node tests' SQS proxy (tests/helpers/aws-cluster-sqs.ts) holds a host's receives. A short poll already
 * on its way upstream when the hold begins can come back with a message; the proxy must give it back to the queue,
 * not hand it to the held host (which is how a multi-node test once saw a held host send a command itself).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createSqsServer } from 'local-aws-sqs';
import { createSqsQueuePair } from '#shared/adapters/sqs/sqs-queues.js';
import { type SqsProxy, startSqsProxy } from '#tests/helpers/aws-cluster-sqs.js';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const clientOf = (endpoint: string) => new SQSClient({ endpoint, region: 'us-east-1', credentials });

let sqs: http.Server;
let endpoint: string;
let proxy: SqsProxy;
/** Between the proxy and the emulator: holds the proxy as soon as one of its receives is on its way upstream. */
let interposer: http.Server;

beforeAll(async () => {
  sqs = await createSqsServer({ port: 0, hostname: '127.0.0.1', emulateQueueCreationLifecycle: false });
  endpoint = `http://127.0.0.1:${(sqs.address() as AddressInfo).port}`;
  interposer = http.createServer((req, res) => {
    if (req.headers['x-amz-target'] === 'AmazonSQS.ReceiveMessage') proxy.paused = true;
    const upstream = http.request(
      `${endpoint}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => interposer.listen(0, '127.0.0.1', resolve));
  proxy = await startSqsProxy(`http://127.0.0.1:${(interposer.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await proxy.stop();
  for (const server of [interposer, sqs]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

it('gives back a message its receive took after the hold began, for the other hosts', async () => {
  const direct = clientOf(endpoint);
  const held = clientOf(proxy.endpoint);
  const { url } = await createSqsQueuePair(direct, {
    name: `proxy-${randomUUID().slice(0, 8)}`,
    fifo: true,
    visibilityTimeoutSeconds: 60,
  });
  await direct.send(
    new SendMessageCommand({
      QueueUrl: url,
      MessageBody: 'command',
      MessageGroupId: 's1',
      MessageDeduplicationId: 'd1',
    }),
  );

  const heldAnswer = await held.send(
    new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 1, MaxNumberOfMessages: 10 }),
  );
  expect(proxy.paused).toBe(true);
  expect(heldAnswer.Messages ?? []).toEqual([]);
  // Given back with visibility 0: another host takes it at once, not after the 60 s visibility timeout.
  const other = await direct.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }));
  expect(other.Messages?.map((message) => message.Body)).toEqual(['command']);
  direct.destroy();
  held.destroy();
});
