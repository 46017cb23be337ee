/**
 * Where a WhatsApp engine keeps the authentication state of a linked device: one credentials document per session
 * and a store of keys grouped by category (Signal sessions, pre-keys, sender keys …).
 *
 * The port stores opaque strings and knows nothing of the engine: turning engine objects into text happens above
 * it, so SQLite, DynamoDB and the in-memory fake hold the same text and one cache decorator fits them all.
 */
import { ValidationError } from '#shared/errors/app-error.js';

/** One change of a key batch: `value` null deletes the key (deleting a missing key is not an error). */
export interface AuthKeyChange {
  category: string;
  id: string;
  value: string | null;
}

/** A stored key with its value (what `readAll` answers). */
export interface AuthKeyValue {
  category: string;
  id: string;
  value: string;
}

/** A session's whole stored state: credentials (null when none) and every key, in no particular order. */
export interface AuthStateSnapshot {
  credentials: string | null;
  keys: AuthKeyValue[];
}

/**
 * Authentication state per session.
 *
 * Identifiers: `sessionId` is the gateway's session id (a UUID); anything outside SESSION_ID_PATTERN is refused
 * with ValidationError, by every adapter alike, because adapters turn it into folder names or partition keys.
 * `category` and key `id` are non-empty strings of any characters (unicode included).
 *
 * Durability: a write that resolved survives the process being killed (SIGKILL) right after, and the writes of
 * one session become durable in the order they resolved, credentials and keys alike, so a crash never leaves
 * credentials newer than the keys they were written after. This is what keeps Signal ratchets intact.
 *
 * Failures: invalid arguments raise ValidationError; an unreachable or failing backend raises a retryable
 * UnavailableError (DEPENDENCY_UNAVAILABLE), and so does any call after `close`.
 */
export interface AuthStateStore {
  /** The credentials document, or null when the session was never linked (or has been wiped). */
  readCredentials(sessionId: string): Promise<string | null>;
  /** Replaces the credentials document; durable once resolved. */
  writeCredentials(sessionId: string, document: string): Promise<void>;
  /**
   * Whether credentials exist, without transferring the document: boot and restart decide with it between
   * "resume the linked device" and "show a QR code".
   */
  hasCredentials(sessionId: string): Promise<boolean>;
  /**
   * The stored values of `ids` in `category`. Missing ids are absent from the map (never mapped to null), so
   * callers can tell "unknown" without a sentinel; duplicates in `ids` are harmless.
   */
  readKeys(sessionId: string, category: string, ids: readonly string[]): Promise<Map<string, string>>;
  /**
   * Applies a batch all-or-nothing: either every change is durable when the promise resolves, or the call rejects
   * and none of them is visible. Changes apply in order, so for a key named twice the last change wins. An empty
   * batch does nothing. A batch is a flat list, so no engine's data shape leaks into the port.
   */
  writeKeys(sessionId: string, changes: readonly AuthKeyChange[]): Promise<void>;
  /**
   * The session's whole state, for the data export that moves a linked device to another deployment (an operator's
   * explicit request only: it is the account's keys). An unknown or wiped session answers no credentials, no keys.
   */
  readAll(sessionId: string): Promise<AuthStateSnapshot>;
  /**
   * Removes the credentials and every key of the session, and whatever the adapter keeps for it (files, cached
   * entries). Idempotent: wiping an unknown or already-wiped session succeeds.
   */
  wipe(sessionId: string): Promise<void>;
  /**
   * This process stops using the session (engine stopped, ownership moved to another node): adapters drop
   * connections and cached entries for it; the stored state stays. Later calls simply reopen it.
   */
  release(sessionId: string): Promise<void>;
  /** Releases every session; later calls reject with UnavailableError. Closing twice is harmless. */
  close(): Promise<void>;
}

/**
 * Session ids every adapter accepts: an ASCII letter or digit first (no dot, so never `.` or `..`), then up to
 * 127 letters, digits, `-` or `_`. UUIDs fit; separators and traversal sequences cannot.
 */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Throws ValidationError unless `sessionId` matches SESSION_ID_PATTERN. Shared so every adapter refuses alike. */
export function assertAuthSessionId(sessionId: string): void {
  if (typeof sessionId !== 'string' || !SESSION_ID_PATTERN.test(sessionId)) {
    throw new ValidationError('Invalid auth-state session id', { details: { sessionId: String(sessionId) } });
  }
}

/** Throws ValidationError unless `text` is a non-empty string (a key category or id). */
export function assertKeyName(text: string, what: 'category' | 'id'): void {
  if (typeof text !== 'string' || text.length === 0) {
    throw new ValidationError(`Auth-state key ${what} must be a non-empty string`);
  }
}

/** Throws ValidationError unless the credentials document is a string (the engine serialises it first). */
export function assertCredentialsDocument(document: string): void {
  if (typeof document !== 'string') throw new ValidationError('Auth-state credentials must be a string');
}

/**
 * Validates a whole batch before any of it is applied, so adapters refuse a malformed batch up front and a value
 * that is not a string at runtime (a Buffer left unserialised by the engine, say) never reaches storage.
 */
export function assertKeyChanges(changes: readonly AuthKeyChange[]): void {
  if (!Array.isArray(changes)) throw new ValidationError('Auth-state key changes must be a list');
  for (const change of changes) {
    assertKeyName(change.category, 'category');
    assertKeyName(change.id, 'id');
    if (change.value !== null && typeof change.value !== 'string') {
      throw new ValidationError('Auth-state key values must be strings or null (delete)', {
        details: { category: change.category, id: change.id },
      });
    }
  }
}
