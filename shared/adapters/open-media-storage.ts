/**
 * The media archive the env configures (STORAGE_TYPE): files under STORAGE_LOCAL_PATH, or the S3_BUCKET. Both
 * composition roots (the host's backends and the functions' deps) open it here, so they never disagree on where
 * media lives.
 */
import type { Env } from '#shared/config/env.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import { FileSystemMediaStorage } from './filesystem/filesystem-media-storage.js';
import { S3MediaStorage } from './s3/s3-media-storage.js';

export type MediaEnv = Pick<
  Env,
  | 'STORAGE_TYPE'
  | 'STORAGE_LOCAL_PATH'
  | 'MEDIA_DOWNLOAD_MAX_BYTES'
  | 'S3_BUCKET'
  | 'S3_ENDPOINT'
  | 'AWS_REGION'
>;

export function openMediaStorage(env: MediaEnv): MediaStorage {
  const maxBytes = env.MEDIA_DOWNLOAD_MAX_BYTES;
  if (env.STORAGE_TYPE === 'local')
    return new FileSystemMediaStorage({ root: env.STORAGE_LOCAL_PATH, maxBytes });
  // loadEnv refuses STORAGE_TYPE=s3 without a bucket; this guards callers that build an env by hand.
  if (!env.S3_BUCKET) throw new Error('S3_BUCKET is required with STORAGE_TYPE=s3');
  return new S3MediaStorage({
    bucket: env.S3_BUCKET,
    region: env.AWS_REGION,
    maxBytes,
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
  });
}
