/**
 * Baileys' AuthenticationState on top of the engine-agnostic AuthStateStore: credentials and Signal keys are
 * serialised with Baileys' BufferJSON here, so the store only ever sees opaque text. Every `keys.set` is one
 * all-or-nothing write that has resolved before Baileys goes on.
 */
import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys';
import type { AuthKeyChange, AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import { boundReceivingChains } from './signal-receiving-chains.js';

/**
 * True when `value` is plain JSON data: nothing in it that BufferJSON.replacer would rewrite (byte arrays, Buffer
 * look-alikes) and nothing with its own serialisation (toJSON, class instances). Signal sessions, the value written
 * on every send, are such data (libsignal serialises them to base64 strings).
 */
function isPlainData(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.every(isPlainData);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  if (record.type === 'Buffer' || 'toJSON' in record) return false;
  for (const key in record) if (!isPlainData(record[key])) return false;
  return true;
}

/**
 * BufferJSON's encoding. The replacer runs once per value from inside JSON.stringify, which makes it several times
 * slower than plain JSON.stringify; for plain data it returns every value unchanged, so the output is the same.
 */
const encode = (value: unknown): string =>
  isPlainData(value) ? JSON.stringify(value) : JSON.stringify(value, BufferJSON.replacer);
const decode = (text: string): unknown => JSON.parse(text, BufferJSON.reviver);

export interface LoadedAuthState {
  state: AuthenticationState;
  /** True when the session already has a linked device (no QR needed). */
  linked: boolean;
  saveCredentials(): Promise<void>;
}

/**
 * Loads a session's auth state. `persisting()` is asked before every write: once the session's credentials are
 * wiped (logout, delete), a socket still winding down must not write them back.
 */
/** Decoded keys kept per socket: every encrypt reads the contact's Signal session, and parsing it again is costly. */
const DECODED_CACHE_ENTRIES = 4_000;
/**
 * Categories whose values Baileys treats as immutable (byte strings, key pairs, protos). Maps and arrays that it
 * reads, changes in place and writes back (sender-key-memory, app-state versions, device lists) are not cached, nor
 * are one-time pre-keys: hundreds are written when a device links and each is read at most once, so caching them
 * kept about 1,600 Buffers per idle session alive.
 */
const CACHEABLE: ReadonlySet<string> = new Set([
  'session',
  'sender-key',
  'identity-key',
  'app-state-sync-key',
  'lid-mapping',
]);

export async function loadAuthState(
  store: AuthStateStore,
  sessionId: string,
  persisting: () => boolean,
): Promise<LoadedAuthState> {
  const document = await store.readCredentials(sessionId);
  const creds: AuthenticationCreds = document ? (decode(document) as AuthenticationCreds) : initAuthCreds();
  // The socket is its session's only writer, so what it wrote is what a read would return. Values are plain data
  // (Signal records serialise to base64 strings) that Baileys and libsignal only read.
  const decoded = new Map<string, unknown>();
  const remember = (key: string, value: unknown) => {
    decoded.delete(key);
    decoded.set(key, value);
    if (decoded.size > DECODED_CACHE_ENTRIES) {
      const oldest = decoded.keys().next().value;
      if (oldest !== undefined) decoded.delete(oldest);
    }
  };

  const keys: SignalKeyStore = {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const result: { [id: string]: SignalDataTypeMap[T] } = {};
      const missing: string[] = [];
      for (const id of ids) {
        const hit = CACHEABLE.has(type) ? decoded.get(`${type}\u0000${id}`) : undefined;
        if (hit === undefined) missing.push(id);
        else result[id] = hit as SignalDataTypeMap[T];
      }
      if (missing.length === 0) return result;
      const stored = await store.readKeys(sessionId, type, missing);
      for (const [id, text] of stored) {
        let value = decode(text);
        // Baileys expects a proto instance for app-state keys, not the plain object JSON gives back.
        if (type === 'app-state-sync-key' && value) {
          value = proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>);
        }
        if (CACHEABLE.has(type)) remember(`${type}\u0000${id}`, value);
        result[id] = value as SignalDataTypeMap[T];
      }
      return result;
    },
    async set(data: SignalDataSet) {
      if (!persisting()) return;
      const changes: AuthKeyChange[] = [];
      for (const [category, entries] of Object.entries(data)) {
        for (const [id, value] of Object.entries(entries ?? {})) {
          if (value === undefined) continue;
          // Signal sessions are stored with at most five receiving chains (see signal-receiving-chains.ts).
          if (category === 'session') boundReceivingChains(value);
          changes.push({ category, id, value: value === null ? null : encode(value) });
        }
      }
      await store.writeKeys(sessionId, changes);
      // Only after the write succeeded: a failed batch must not be visible to later reads.
      for (const change of changes) {
        if (!CACHEABLE.has(change.category)) continue;
        const key = `${change.category}\u0000${change.id}`;
        if (change.value === null) decoded.delete(key);
        else remember(key, (data as Record<string, Record<string, unknown>>)[change.category]?.[change.id]);
      }
    },
  };

  return {
    state: { creds, keys },
    linked: Boolean(creds.me?.id) && Boolean(document),
    saveCredentials: async () => {
      if (persisting()) await store.writeCredentials(sessionId, encode(creds));
    },
  };
}
