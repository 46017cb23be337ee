/**
 * The MediaStorage contract against the S3 adapter on an S3 emulator (s3rver, from npm): a fresh bucket for each
 * opened storage, so tests never see each other's objects. Also what only S3 has: an unreachable or missing bucket
 * is a retryable 503, never a crash or a 404.
 */
import { randomUUID } from 'node:crypto';
import { S3MediaStorage } from '#shared/adapters/s3/s3-media-storage.js';
import { CONTRACT_MAX_BYTES, mediaStorageContract } from '#tests/contract/media-storage.contract.js';
import { ensureBucket, type S3Emulator, startS3Emulator } from './s3-emulator.js';

process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

let emulator: S3Emulator;
let buckets = 0;

beforeAll(async () => {
  emulator = await startS3Emulator();
}, 60_000);

afterAll(async () => {
  await emulator?.stop();
});

function storageOn(bucket: string, endpoint = emulator.endpoint): S3MediaStorage {
  return new S3MediaStorage({ bucket, region: 'us-east-1', endpoint, maxBytes: CONTRACT_MAX_BYTES });
}

mediaStorageContract(
  's3',
  async () => {
    buckets += 1;
    const bucket = `media-${process.pid}-${buckets}`;
    await ensureBucket(emulator.endpoint, bucket);
    const storage = storageOn(bucket);
    return { storage, close: () => storage.close() };
  },
  { presigns: true },
);

describe('S3MediaStorage failures', () => {
  const key = `${randomUUID()}/IMG-1.jpg`;

  it('a bucket that does not exist is 503 DEPENDENCY_UNAVAILABLE on every call', async () => {
    const storage = storageOn('no-such-bucket');
    const unavailable = { status: 503, code: 'DEPENDENCY_UNAVAILABLE', retryable: true };
    const upload = {
      sessionId: randomUUID(),
      messageId: 'A',
      mimetype: 'image/jpeg',
      data: new Uint8Array(1),
    };
    await expect(storage.put(upload)).rejects.toMatchObject(unavailable);
    await expect(storage.get(key)).rejects.toMatchObject(unavailable);
    await expect(storage.deleteBySession(randomUUID())).rejects.toMatchObject(unavailable);
    await storage.close();
  });

  it('an endpoint nobody answers is 503 DEPENDENCY_UNAVAILABLE', async () => {
    const storage = storageOn('media-unreachable', 'http://127.0.0.1:9');
    await expect(storage.stat(key)).rejects.toMatchObject({ status: 503, code: 'DEPENDENCY_UNAVAILABLE' });
    await storage.close();
  });
});
