/**
 * The media variables: where media is kept by deployment mode (files under DATA_DIR/media, or S3), the size cap with
 * the spec's limit fallback, the webhook inline cap that 0 turns off, and the refusals that stop boot.
 */

import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { loadEnv } from '#shared/config/env.js';

const AWS = {
  DEPLOYMENT_MODE: 'aws',
  COMMAND_QUEUE_URL: 'http://q.local/commands',
  HOST_RPC_TOKEN: 't'.repeat(32),
};

describe('media configuration', () => {
  it('keeps files under DATA_DIR/media by default, at most 50 MiB each; inline webhook media up to 1 MiB', () => {
    const env = loadEnv({ DATA_DIR: '/srv/waygate' });
    expect(env).toMatchObject({
      STORAGE_TYPE: 'local',
      STORAGE_LOCAL_PATH: path.resolve('/srv/waygate/media'),
      MEDIA_DOWNLOAD_MAX_BYTES: 52_428_800,
      WEBHOOK_MEDIA_INLINE_MAX_BYTES: 1_048_576,
    });
    expect(env.S3_BUCKET).toBeUndefined();
  });

  it('resolves STORAGE_LOCAL_PATH against DATA_DIR; a bad cap means the default; inline 0 means never', () => {
    expect(
      loadEnv({
        DATA_DIR: '/srv/waygate',
        STORAGE_LOCAL_PATH: 'files',
        MEDIA_DOWNLOAD_MAX_BYTES: '-5',
        WEBHOOK_MEDIA_INLINE_MAX_BYTES: '0',
      }),
    ).toMatchObject({
      STORAGE_LOCAL_PATH: path.resolve('/srv/waygate/files'),
      MEDIA_DOWNLOAD_MAX_BYTES: 52_428_800,
      WEBHOOK_MEDIA_INLINE_MAX_BYTES: 0,
    });
    expect(
      loadEnv({
        STORAGE_LOCAL_PATH: '/mnt/media',
        MEDIA_DOWNLOAD_MAX_BYTES: '1000',
        WEBHOOK_MEDIA_INLINE_MAX_BYTES: 'x',
      }),
    ).toMatchObject({
      STORAGE_LOCAL_PATH: '/mnt/media',
      MEDIA_DOWNLOAD_MAX_BYTES: 1000,
      WEBHOOK_MEDIA_INLINE_MAX_BYTES: 1_048_576,
    });
  });

  it('uses S3 in aws mode, and refuses aws mode without a bucket or with local files', () => {
    expect(
      loadEnv({ ...AWS, S3_BUCKET: 'waygate-media', S3_ENDPOINT: 'http://127.0.0.1:4568' }),
    ).toMatchObject({
      STORAGE_TYPE: 's3',
      S3_BUCKET: 'waygate-media',
      S3_ENDPOINT: 'http://127.0.0.1:4568',
    });
    expect(() => loadEnv(AWS)).toThrow(/S3_BUCKET: required when STORAGE_TYPE=s3/);
    expect(() => loadEnv({ ...AWS, S3_BUCKET: 'b-1', STORAGE_TYPE: 'local' })).toThrow(
      /STORAGE_TYPE: local needs/,
    );
  });

  it('lets the embedded mode use S3 when asked, with a bucket', () => {
    expect(loadEnv({ STORAGE_TYPE: 's3', S3_BUCKET: 'my-media' }).STORAGE_TYPE).toBe('s3');
    expect(() => loadEnv({ STORAGE_TYPE: 's3' })).toThrow(/S3_BUCKET/);
  });

  it('names a malformed bucket, endpoint or storage type', () => {
    expect(() => loadEnv({ S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET: must be an S3 bucket name/);
    expect(() => loadEnv({ S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadEnv({ STORAGE_TYPE: 'gcs' })).toThrow(/STORAGE_TYPE/);
  });
});
