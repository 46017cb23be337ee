/**
 * Env of the media archive (openwa-facts §9 names): where message media is kept (files under STORAGE_LOCAL_PATH, or
 * an S3 bucket; loadEnv derives the default from the deployment mode and resolves the folder against DATA_DIR) and
 * how large one file may be.
 */
import { z } from 'zod';
import { limit, optionalChoice, optionalMatching, optionalString, optionalUrl } from './fields.js';

export const MediaEnv = z.object({
  /** `local` (files on the host; the embedded default) or `s3` (the only choice, and the default, in aws mode). */
  STORAGE_TYPE: optionalChoice(['local', 's3']),
  /** The archive's folder with STORAGE_TYPE=local; default `$DATA_DIR/media`. */
  STORAGE_LOCAL_PATH: optionalString,
  /** The largest media file kept, in bytes (50 MiB); a larger one is not archived. */
  MEDIA_DOWNLOAD_MAX_BYTES: limit(52_428_800),
  /** The bucket with STORAGE_TYPE=s3 (serverless.yml creates it); credentials come from the AWS SDK's usual chain. */
  S3_BUCKET: optionalMatching(
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
    'must be an S3 bucket name (3–63 lower-case letters, digits, dots and hyphens)',
  ),
  /** An S3-compatible endpoint (s3rver, LocalStack, MinIO); unset in AWS. */
  S3_ENDPOINT: optionalUrl,
});
