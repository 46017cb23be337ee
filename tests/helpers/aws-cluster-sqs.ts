/**
 * A proxy in front of the SQS emulator for one host of a multi-node test, so the test can hold that host's receives
 * from the command queue (as if the host were busy) and steer commands to the others. It turns each long poll into
 * short polls (WaitTimeSeconds 0) until a message comes, the wait runs out or the client leaves, which is SQS's
 * long-poll behaviour whatever the emulator behind does (local-aws-sqs 2.0.2 alone answers a long poll only once it
 * holds MaxNumberOfMessages or the wait is over, and keeps the poll of a client that left collecting messages), and
 * lets a hold take effect within one short poll: a short poll already on its way when the hold begins may still come
 * back with messages (a busy machine can let a send overtake it), and those are given back to the queue (visibility
 * 0) instead of reaching the held host. Every other request passes through unchanged.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const SHORT_POLL_PAUSE_MS = 50;

export interface SqsProxy {
  endpoint: string;
  /** While set, this proxy's receives take nothing (long polls wait, then answer empty); the rest passes. */
  paused: boolean;
  stop(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `body` upstream with `req`'s method, path and headers; `target` replaces its JSON protocol action. */
async function forward(
  upstream: string,
  req: http.IncomingMessage,
  body: Buffer | string,
  target?: string,
): Promise<Upstream> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) {
      headers[name] = value;
    }
  }
  if (target) headers['x-amz-target'] = target;
  const response = await fetch(`${upstream}${req.url ?? '/'}`, {
    method: req.method ?? 'POST',
    headers,
    ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
  });
  const answer: Upstream = { status: response.status, headers: {}, body: await response.text() };
  for (const name of ['content-type', 'x-amzn-requestid']) {
    const value = response.headers.get(name);
    if (value) answer.headers[name] = value;
  }
  return answer;
}

/** The JSON protocol's ReceiveMessage with a wait (what the AWS SDK v3 sends), else null. */
function longPoll(
  req: http.IncomingMessage,
  body: Buffer,
): { request: Record<string, unknown>; waitMs: number } | null {
  if (req.headers['x-amz-target'] !== 'AmazonSQS.ReceiveMessage') return null;
  try {
    const request = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const wait = Number(request.WaitTimeSeconds ?? 0);
    return wait > 0 ? { request, waitMs: wait * 1000 } : null;
  } catch {
    return null;
  }
}

const messagesOf = (answer: Upstream): { ReceiptHandle: string }[] =>
  answer.status === 200 && answer.body !== '' ? (JSON.parse(answer.body).Messages ?? []) : [];

/** Makes messages a held host's poll took visible again at once, for the other hosts. */
async function giveBack(
  upstream: string,
  req: http.IncomingMessage,
  queueUrl: unknown,
  messages: { ReceiptHandle: string }[],
): Promise<void> {
  for (const message of messages) {
    const body = JSON.stringify({
      QueueUrl: queueUrl,
      ReceiptHandle: message.ReceiptHandle,
      VisibilityTimeout: 0,
    });
    const given = await forward(upstream, req, body, 'AmazonSQS.ChangeMessageVisibility');
    if (given.status !== 200) throw new Error(`the proxy could not give a message back: ${given.body}`);
  }
}

async function handle(
  upstream: string,
  control: SqsProxy,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  let gone = false;
  res.on('close', () => {
    gone = !res.writableEnded;
  });
  const body = await readBody(req);
  const poll = longPoll(req, body);
  let answer: Upstream;
  if (poll) {
    const short = JSON.stringify({ ...poll.request, WaitTimeSeconds: 0 });
    const deadline = Date.now() + poll.waitMs;
    for (;;) {
      if (gone) return;
      if (control.paused) {
        answer = { status: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: '' };
      } else {
        answer = await forward(upstream, req, short);
        const taken = messagesOf(answer);
        if (control.paused && taken.length > 0) await giveBack(upstream, req, poll.request.QueueUrl, taken);
        else if (answer.status !== 200 || taken.length > 0) break;
      }
      if (Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, SHORT_POLL_PAUSE_MS));
    }
  } else {
    answer = await forward(upstream, req, body);
  }
  if (gone) return;
  res.writeHead(answer.status, answer.headers).end(answer.body);
}

/** Starts a proxy to the SQS endpoint `upstream` on a free port of 127.0.0.1. */
export async function startSqsProxy(upstream: string): Promise<SqsProxy> {
  const server = http.createServer((req, res) => {
    handle(upstream, control, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  const control: SqsProxy = { endpoint: await listen(server), paused: false, stop: () => close(server) };
  return control;
}
