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
import type { AuthKeyChange, AuthStateStore } from '../../../shared/ports/auth-state-store.port.js';

const encode = (value: unknown): string => JSON.stringify(value, BufferJSON.replacer);
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
export async function loadAuthState(
  store: AuthStateStore,
  sessionId: string,
  persisting: () => boolean,
): Promise<LoadedAuthState> {
  const document = await store.readCredentials(sessionId);
  const creds: AuthenticationCreds = document ? (decode(document) as AuthenticationCreds) : initAuthCreds();

  const keys: SignalKeyStore = {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const stored = await store.readKeys(sessionId, type, ids);
      const result: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const [id, text] of stored) {
        let value = decode(text);
        // Baileys expects a proto instance for app-state keys, not the plain object JSON gives back.
        if (type === 'app-state-sync-key' && value) {
          value = proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>);
        }
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
          changes.push({ category, id, value: value === null ? null : encode(value) });
        }
      }
      await store.writeKeys(sessionId, changes);
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
