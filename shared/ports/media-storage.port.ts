/**
 * The media archive: the files of messages (images, voice notes, documents …), kept beside the data store, which
 * holds only their key (`mediaPath`) and type (`mediaMimetype`). Files on the host's disk in the embedded mode, S3 in
 * aws mode (a function cannot read a host's disk). A host archives what it downloads with `put` and writes the answer
 * into the message row; the API serves it by the row.
 */

/** What to archive: the message it belongs to, its type and its bytes (whole, or as a stream of chunks). */
export interface MediaUpload {
  sessionId: string;
  /** The stored row's id or the network message id: letters, digits, `_` and `-` only (anything else is refused). */
  messageId: string;
  /** The media type as the network gave it; types outside the allow-map are stored as application/octet-stream. */
  mimetype: string;
  /** The file: bytes, or chunks (a Node stream is one) that are read until the end or until the size cap. */
  data: Uint8Array | AsyncIterable<Uint8Array>;
}

/** Where `put` kept a file: the row's `mediaPath` and `mediaMimetype`, and the size in bytes. */
export interface StoredMedia {
  path: string;
  mimetype: string;
  size: number;
}

/** What is known of a stored file without reading it. */
export interface MediaInfo {
  size: number;
  /** The allow-listed type the file was stored as (application/octet-stream for any other). */
  mimetype: string;
  /** A safe download name: `<message id>.<extension>`. */
  fileName: string;
}

/** A stored file, read whole (files are capped at `maxBytes`). */
export interface MediaFile extends MediaInfo {
  bytes: Uint8Array;
}

/** How a presigned download answers: the headers the storage service sends with the file. */
export interface PresignOptions {
  /** How long the URL works, in seconds. */
  ttlSeconds: number;
  contentType: string;
  contentDisposition: string;
}

/**
 * Keeps message media under keys it makes itself (`<session id>/<message id>.<extension>`), never under a path a
 * client chose; every method refuses (400 MEDIA_KEY_INVALID) a key of any other shape, so no key reaches outside the
 * archive. Store failures are AppErrors (503 DEPENDENCY_UNAVAILABLE, retryable).
 */
export interface MediaStorage {
  /** The size cap (MEDIA_DOWNLOAD_MAX_BYTES): a host may refuse a larger file before downloading it. */
  readonly maxBytes: number;
  /**
   * Stores a message's file and answers where. Over `maxBytes` it throws 413 MEDIA_TOO_LARGE and keeps nothing. The
   * file appears whole or not at all (a crash part-way never leaves half a file under the key); storing the same
   * message again replaces it.
   */
  put(upload: MediaUpload): Promise<StoredMedia>;
  /** Size and type of a stored file; null when there is none under the key. */
  stat(path: string): Promise<MediaInfo | null>;
  /** A stored file; null when there is none under the key. */
  get(path: string): Promise<MediaFile | null>;
  /**
   * A short-lived URL from which a client downloads the file straight from the storage service, when the storage
   * has one (S3); absent for the file system. The caller checks the file exists first.
   */
  presignedUrl?(path: string, options: PresignOptions): Promise<string>;
  /** Removes a file; nothing under the key is not an error. */
  delete(path: string): Promise<void>;
  /** Removes every file of a session (session delete); answers how many there were. */
  deleteBySession(sessionId: string): Promise<number>;
  close(): Promise<void>;
}
