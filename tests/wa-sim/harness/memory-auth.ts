/**
 * An in-memory Baileys auth state (creds from `initAuthCreds` plus a key map) that can be saved to JSON and
 * restored, so a reconnect test starts from what a store would have persisted rather than live objects.
 */
import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
} from '@whiskeysockets/baileys';

/** A memory auth state and its persistence. */
export interface MemoryAuth {
  readonly state: AuthenticationState;
  /** Merges a `creds.update` into the creds (wire it to the socket's event). */
  saveCreds(update: Partial<AuthenticationCreds>): void;
  /** JSON of creds and keys, as a durable store would hold them. */
  save(): string;
}

type KeyMap = Map<string, unknown>;

function keyOf(type: keyof SignalDataTypeMap, id: string): string {
  return `${type}/${id}`;
}

function build(creds: AuthenticationCreds, keys: KeyMap): MemoryAuth {
  const state: AuthenticationState = {
    creds,
    keys: {
      get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
        const found: { [id: string]: SignalDataTypeMap[T] } = {};
        for (const id of ids) {
          const value = keys.get(keyOf(type, id));
          if (value !== undefined) found[id] = value as SignalDataTypeMap[T];
        }
        return found;
      },
      set: async (data: SignalDataSet) => {
        for (const [type, entries] of Object.entries(data)) {
          for (const [id, value] of Object.entries(entries ?? {})) {
            const key = `${type}/${id}`;
            if (value === null || value === undefined) keys.delete(key);
            else keys.set(key, value);
          }
        }
      },
    },
  };
  return {
    state,
    saveCreds: (update) => Object.assign(creds, update),
    save: () => JSON.stringify({ creds, keys: [...keys] }, BufferJSON.replacer),
  };
}

/** A fresh, unlinked auth state. */
export function createMemoryAuth(): MemoryAuth {
  return build(initAuthCreds(), new Map());
}

/** Rebuilds an auth state from `save()` output. */
export function restoreMemoryAuth(saved: string): MemoryAuth {
  const parsed = JSON.parse(saved, BufferJSON.reviver) as {
    creds: AuthenticationCreds;
    keys: [string, unknown][];
  };
  const keys: KeyMap = new Map(
    parsed.keys.map(([key, value]) => [
      key,
      key.startsWith('app-state-sync-key/')
        ? proto.Message.AppStateSyncKeyData.fromObject(value as object)
        : value,
    ]),
  );
  return build(parsed.creds, keys);
}
