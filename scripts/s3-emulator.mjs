/**
 * The local stand-in for S3 that tests and `npm run offline` use: s3rver (a pure npm package; files in a temporary
 * folder) on a free port, and `ensureBucket`, which makes a deployment's media bucket on it or on any S3-compatible
 * endpoint (LocalStack). A deployment's bucket is `<queue prefix>-media`, as the LocalStack init script names it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The media bucket of a deployment whose queues are named after `queuePrefix` (bucket names are lower case). */
export function mediaBucketName(queuePrefix) {
  return `${queuePrefix}-media`
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, '-')
    .slice(0, 63);
}

/**
 * Starts s3rver on `port` (0: a free one). s3rver knows one access key of its own and does not check SigV4
 * signatures; the local runs sign with the key `local` (DynamoDB Local keeps one database per key), so that key is
 * registered too. Answers the endpoint and `stop()`, which also removes the emulator's files.
 */
export async function startS3Emulator({ port = 0 } = {}) {
  const S3rver = require('s3rver');
  const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account');
  DUMMY_ACCOUNT.createKeyPair('local', 'local');
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-s3-'));
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const stop = async () => {
    // Keep-alive sockets of clients (functions, hosts) would hold close() open.
    server.httpServer?.closeAllConnections?.();
    await server.close();
    fs.rmSync(directory, { recursive: true, force: true });
  };
  return { endpoint, stop };
}

/** Creates `bucket` at `endpoint` unless it exists (path-style requests, the dummy credentials). */
export async function ensureBucket({ endpoint, region = 'us-east-1', bucket }) {
  const { S3Client, CreateBucketCommand, HeadBucketCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint,
    region,
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    try {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    } catch {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    }
  } finally {
    client.destroy();
  }
  return bucket;
}
