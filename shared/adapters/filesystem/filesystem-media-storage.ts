/**
 * MediaStorage on the host's file system (the embedded mode): `<root>/<session id>/<message id>.<extension>`,
 * folders 0700 and files 0600 as the credentials are. A file is written under a temporary name in its folder,
 * flushed, then renamed over its key, so a crash part-way never leaves half a file under the final name (a leftover
 * temporary file matches no key and goes with its session's folder).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mediaTypeOfExtension } from '#shared/domain/media.js';
import { AppError, UnavailableError, ValidationError } from '#shared/errors/app-error.js';
import type {
  MediaFile,
  MediaInfo,
  MediaStorage,
  MediaUpload,
  StoredMedia,
} from '#shared/ports/media-storage.port.js';
import { chunksWithinCap, requireMediaKey, requireMediaSessionId, uploadKey } from '../media-support.js';

export interface FileSystemMediaStorageOptions {
  /** The archive's folder (STORAGE_LOCAL_PATH); created on the first write. */
  root: string;
  maxBytes: number;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** Runs a file operation; whatever is not an AppError becomes a retryable 503 (disk full, permissions, …). */
async function guard<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Media storage is unavailable', { cause: error });
  }
}

export class FileSystemMediaStorage implements MediaStorage {
  readonly maxBytes: number;
  private readonly root: string;

  constructor(options: FileSystemMediaStorageOptions) {
    this.root = path.resolve(options.root);
    this.maxBytes = options.maxBytes;
  }

  /**
   * The file or folder under the root that `parts` name. Keys are checked before they get here; this refuses
   * anything that would still resolve outside the root, so no future key shape can escape it.
   */
  private within(...parts: string[]): string {
    const resolved = path.resolve(this.root, ...parts);
    const relative = path.relative(this.root, resolved);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
      throw new ValidationError(`Not a media key: ${JSON.stringify(parts.join('/'))}`, {
        code: 'MEDIA_KEY_INVALID',
      });
    }
    return resolved;
  }

  private fileOf(key: string): { file: string; info: Omit<MediaInfo, 'size'> } {
    const { sessionId, fileName, extension } = requireMediaKey(key);
    return {
      file: this.within(sessionId, fileName),
      info: { mimetype: mediaTypeOfExtension(extension), fileName },
    };
  }

  async put(upload: MediaUpload): Promise<StoredMedia> {
    const { key, mimetype, sessionId, fileName } = uploadKey(upload);
    const folder = this.within(sessionId);
    const file = this.within(sessionId, fileName);
    const temporary = path.join(folder, `.${fileName}.${randomBytes(6).toString('hex')}.tmp`);
    return guard(async () => {
      await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
      let size = 0;
      const counted = async function* (chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          size += chunk.byteLength;
          yield chunk;
        }
      };
      try {
        await pipeline(
          Readable.from(counted(chunksWithinCap(upload.data, this.maxBytes)), { objectMode: false }),
          // `flush`: the bytes are on disk before the rename makes them visible under the key.
          fs.createWriteStream(temporary, { flags: 'wx', mode: 0o600, flush: true }),
        );
        await fs.promises.rename(temporary, file);
      } catch (error) {
        await fs.promises.rm(temporary, { force: true });
        throw error;
      }
      return { path: key, mimetype, size };
    });
  }

  async stat(key: string): Promise<MediaInfo | null> {
    const { file, info } = this.fileOf(key);
    return guard(async () => {
      try {
        const stats = await fs.promises.stat(file);
        return stats.isFile() ? { ...info, size: stats.size } : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    });
  }

  async get(key: string): Promise<MediaFile | null> {
    const { file, info } = this.fileOf(key);
    return guard(async () => {
      try {
        const bytes = await fs.promises.readFile(file);
        return { ...info, size: bytes.byteLength, bytes };
      } catch (error) {
        if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
        throw error;
      }
    });
  }

  async delete(key: string): Promise<void> {
    const { file } = this.fileOf(key);
    await guard(() => fs.promises.rm(file, { force: true }));
  }

  async deleteBySession(sessionId: string): Promise<number> {
    const folder = this.within(requireMediaSessionId(sessionId));
    return guard(async () => {
      let names: string[];
      try {
        names = await fs.promises.readdir(folder);
      } catch (error) {
        if (isMissing(error)) return 0;
        throw error;
      }
      await fs.promises.rm(folder, { recursive: true, force: true });
      return names.filter((name) => !name.startsWith('.')).length;
    });
  }

  async close(): Promise<void> {}
}
