/**
 * The media host's state: encrypted blobs as they were uploaded, by direct path, and the upload tokens
 * `media_conn` hands out. Blobs live in memory with a bounded total size (the oldest are evicted first), so a
 * long run cannot grow the heap without end; an evicted blob answers 404, as expired WhatsApp media does.
 */
import { randomBytes, randomInt } from 'node:crypto';

/** Total bytes of stored blobs before the oldest are evicted (`SIM_MEDIA_STORE_MB` in `npm run sim`). */
export const DEFAULT_MEDIA_STORE_BYTES = 256 * 1024 * 1024;
/** The largest single upload the host takes; announced as the host's `maxContentLengthBytes`. */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
/** Seconds a client may reuse a `media_conn` answer before asking again (WhatsApp's value). */
export const MEDIA_CONN_TTL_SECONDS = 300;
/** Seconds an upload token stays valid: longer than the ttl, so an answer in use never goes stale mid-upload. */
export const MEDIA_AUTH_TTL_SECONDS = 21_600;

/** Where a stored blob is fetched from: its direct path on the media host and its full URL. */
export interface StoredMedia {
  readonly directPath: string;
  readonly url: string;
}

/** What the store holds now and what it dropped. */
export interface MediaStoreStats {
  readonly blobs: number;
  readonly bytes: number;
  readonly capacityBytes: number;
  readonly evicted: number;
}

/** WhatsApp's path prefix per upload type (what its media URLs show); the bytes are opaque either way. */
const PATH_PREFIX: Readonly<Record<string, string>> = {
  image: 't62.7118-24',
  video: 't62.7161-24',
  audio: 't62.7117-24',
  document: 't62.7119-24',
};
const OTHER_PREFIX = 't62.7114-24';

/** The simulator's media storage: blobs by direct path (pathname only), oldest first. */
export class MediaStore {
  /** `host:port` of the media host as clients reach it; set once it listens. */
  hostname = '';
  private readonly blobs = new Map<string, Buffer>();
  private readonly tokens = new Map<string, number>();
  private bytes = 0;
  private evicted = 0;

  constructor(readonly capacityBytes = DEFAULT_MEDIA_STORE_BYTES) {}

  /** A fresh upload token, valid for `MEDIA_AUTH_TTL_SECONDS`; expired ones are forgotten. */
  issueAuth(now = Date.now()): string {
    for (const [token, expiresAt] of this.tokens) if (expiresAt <= now) this.tokens.delete(token);
    // Base64 with `+`, `/` and `=`, as WhatsApp's are: clients must URL-encode it.
    const token = randomBytes(36).toString('base64');
    this.tokens.set(token, now + MEDIA_AUTH_TTL_SECONDS * 1000);
    return token;
  }

  /** Whether `token` was issued and has not expired. */
  authorized(token: string | null, now = Date.now()): boolean {
    const expiresAt = token ? this.tokens.get(token) : undefined;
    return expiresAt !== undefined && expiresAt > now;
  }

  /** Stores an encrypted blob uploaded as `type` (`image`, `video`, `audio`, `document`…); evicts the oldest. */
  put(type: string, blob: Buffer): StoredMedia {
    if (blob.length > this.capacityBytes) throw new RangeError('blob larger than the media store');
    while (this.bytes + blob.length > this.capacityBytes) this.evictOldest();
    let pathname: string;
    do {
      const name = `${randomInt(1e8, 1e9)}_${randomInt(1e13, 1e14)}_n.enc`;
      pathname = `/v/${PATH_PREFIX[type] ?? OTHER_PREFIX}/${name}`;
    } while (this.blobs.has(pathname));
    const expires = (Math.floor(Date.now() / 1000) + 14 * 24 * 3600).toString(16).toUpperCase();
    const directPath = `${pathname}?ccb=11-4&oh=01_${randomBytes(24).toString('base64url')}&oe=${expires}&_nc_sid=5e03e0`;
    this.blobs.set(pathname, blob);
    this.bytes += blob.length;
    return { directPath, url: `https://${this.hostname}${directPath}&mms3=true` };
  }

  /** The blob at a direct path or URL (its query is ignored), if stored and not evicted. */
  get(pathOrUrl: string): Buffer | undefined {
    return this.blobs.get(pathnameOf(pathOrUrl));
  }

  /** Whether `pathOrUrl` names a blob on this host (a URL of another host never does). */
  isOwnUrl(pathOrUrl: string): boolean {
    if (pathOrUrl.startsWith('/')) return true;
    try {
      return new URL(pathOrUrl).host === this.hostname;
    } catch {
      return false;
    }
  }

  /** Counts for the health view. */
  stats(): MediaStoreStats {
    const { capacityBytes, bytes, evicted } = this;
    return { blobs: this.blobs.size, bytes, capacityBytes, evicted };
  }

  private evictOldest(): void {
    const oldest = this.blobs.entries().next();
    if (oldest.done) return;
    const [pathname, blob] = oldest.value;
    this.blobs.delete(pathname);
    this.bytes -= blob.length;
    this.evicted++;
  }
}

function pathnameOf(pathOrUrl: string): string {
  try {
    return new URL(pathOrUrl, 'https://media.invalid').pathname;
  } catch {
    return '';
  }
}
