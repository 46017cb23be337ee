/**
 * MediaStorage in an S3 bucket (the aws mode: functions and hosts share no disk), one object per key. A PutObject
 * is atomic, so an object is whole or absent. The SDK is loaded on first use: a gateway that keeps its media on disk
 * never pays for loading it.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { mediaTypeOfExtension } from '#shared/domain/media.js';
import { AppError, UnavailableError } from '#shared/errors/app-error.js';
import type {
  MediaFile,
  MediaInfo,
  MediaStorage,
  MediaUpload,
  PresignOptions,
  StoredMedia,
} from '#shared/ports/media-storage.port.js';
import { readWithinCap, requireMediaKey, requireMediaSessionId, uploadKey } from '../media-support.js';

export interface S3MediaStorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (emulators, LocalStack, MinIO); unset in AWS. */
  endpoint?: string;
  maxBytes: number;
}

type S3Sdk = typeof import('@aws-sdk/client-s3');

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

/** Absent objects: GetObject answers NoSuchKey, HeadObject a bare 404 (NotFound). */
function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
}

/** Runs an S3 call: an absent object is `missing`; other SDK errors become a retryable 503. */
async function guard<T, M = never>(operation: () => Promise<T>, missing?: () => M): Promise<T | M> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (missing && isMissing(error)) return missing();
    throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Media storage is unavailable', { cause: error });
  }
}

export class S3MediaStorage implements MediaStorage {
  readonly maxBytes: number;
  private connection: Promise<{ sdk: S3Sdk; client: S3Client }> | null = null;

  constructor(private readonly options: S3MediaStorageOptions) {
    this.maxBytes = options.maxBytes;
  }

  private connect(): Promise<{ sdk: S3Sdk; client: S3Client }> {
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => {
      const { endpoint, region } = this.options;
      const client = new sdk.S3Client({
        region,
        ...(endpoint
          ? {
              endpoint,
              // Emulators and most S3-compatible services serve buckets by path, not by host name, and predate
              // the SDK's default checksums on every request.
              forcePathStyle: true,
              requestChecksumCalculation: 'WHEN_REQUIRED' as const,
              responseChecksumValidation: 'WHEN_REQUIRED' as const,
            }
          : {}),
      });
      return { sdk, client };
    });
    return this.connection;
  }

  async put(upload: MediaUpload): Promise<StoredMedia> {
    const { key, mimetype } = uploadKey(upload);
    // Whole in memory (at most maxBytes): a PutObject needs its length up front.
    const bytes = await readWithinCap(upload.data, this.maxBytes);
    const { sdk, client } = await this.connect();
    await guard(() =>
      client.send(
        new sdk.PutObjectCommand({
          Bucket: this.options.bucket,
          Key: key,
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: mimetype,
        }),
      ),
    );
    return { path: key, mimetype, size: bytes.byteLength };
  }

  async stat(key: string): Promise<MediaInfo | null> {
    const { fileName, extension } = requireMediaKey(key);
    const { sdk, client } = await this.connect();
    const head = await guard(
      () => client.send(new sdk.HeadObjectCommand({ Bucket: this.options.bucket, Key: key })),
      () => null,
    );
    return head
      ? { size: head.ContentLength ?? 0, mimetype: mediaTypeOfExtension(extension), fileName }
      : null;
  }

  async get(key: string): Promise<MediaFile | null> {
    const { fileName, extension } = requireMediaKey(key);
    const { sdk, client } = await this.connect();
    return guard(
      async () => {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
        const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
        return { size: bytes.byteLength, mimetype: mediaTypeOfExtension(extension), fileName, bytes };
      },
      () => null,
    );
  }

  async presignedUrl(key: string, options: PresignOptions): Promise<string> {
    requireMediaKey(key);
    const { sdk, client } = await this.connect();
    const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
    // The answer's headers are part of the signature: S3 sends exactly these with the file.
    const command = new sdk.GetObjectCommand({
      Bucket: this.options.bucket,
      Key: key,
      ResponseContentType: options.contentType,
      ResponseContentDisposition: options.contentDisposition,
      ResponseCacheControl: 'private, no-store',
    });
    return guard(() => getSignedUrl(client, command, { expiresIn: options.ttlSeconds }));
  }

  async delete(key: string): Promise<void> {
    requireMediaKey(key);
    const { sdk, client } = await this.connect();
    await guard(() => client.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: key })));
  }

  async deleteBySession(sessionId: string): Promise<number> {
    const prefix = `${requireMediaSessionId(sessionId)}/`;
    const { sdk, client } = await this.connect();
    const bucket = this.options.bucket;
    let deleted = 0;
    // Listing from the start again after each batch: what was deleted is gone, so every page is the next batch.
    for (;;) {
      const page = await guard(() =>
        client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: DELETE_BATCH })),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
      if (keys.length === 0) return deleted;
      const result = await guard(() =>
        client.send(new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } })),
      );
      if (result.Errors?.length) {
        throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Media storage did not delete every file', {
          details: { failed: result.Errors.length },
        });
      }
      deleted += keys.length;
    }
  }

  async close(): Promise<void> {
    const opened = this.connection;
    this.connection = null;
    if (opened) (await opened).client.destroy();
  }
}
