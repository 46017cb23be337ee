/** In-memory MediaStorage: the unit-test fake, with the same keys, cap and refusals as the real adapters. */
import { mediaTypeOfExtension } from '#shared/domain/media.js';
import type {
  MediaFile,
  MediaInfo,
  MediaStorage,
  MediaUpload,
  StoredMedia,
} from '#shared/ports/media-storage.port.js';
import { readWithinCap, requireMediaKey, requireMediaSessionId, uploadKey } from '../media-support.js';

/** The default cap of the fake (the env default, MEDIA_DOWNLOAD_MAX_BYTES). */
const DEFAULT_MAX_BYTES = 52_428_800;

export class MemoryMediaStorage implements MediaStorage {
  private readonly files = new Map<string, Uint8Array>();

  constructor(readonly maxBytes = DEFAULT_MAX_BYTES) {}

  async put(upload: MediaUpload): Promise<StoredMedia> {
    const { key, mimetype } = uploadKey(upload);
    // A copy: the caller may reuse its buffer.
    const bytes = Uint8Array.from(await readWithinCap(upload.data, this.maxBytes));
    this.files.set(key, bytes);
    return { path: key, mimetype, size: bytes.byteLength };
  }

  async stat(path: string): Promise<MediaInfo | null> {
    const { fileName, extension } = requireMediaKey(path);
    const bytes = this.files.get(path);
    return bytes ? { size: bytes.byteLength, mimetype: mediaTypeOfExtension(extension), fileName } : null;
  }

  async get(path: string): Promise<MediaFile | null> {
    const info = await this.stat(path);
    const bytes = this.files.get(path);
    return info && bytes ? { ...info, bytes: Uint8Array.from(bytes) } : null;
  }

  async delete(path: string): Promise<void> {
    requireMediaKey(path);
    this.files.delete(path);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    const prefix = `${requireMediaSessionId(sessionId)}/`;
    const keys = [...this.files.keys()].filter((key) => key.startsWith(prefix));
    for (const key of keys) this.files.delete(key);
    return keys.length;
  }

  async close(): Promise<void> {}
}
