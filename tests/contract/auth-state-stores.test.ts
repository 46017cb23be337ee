/** Runs the AuthStateStore contract against every adapter: the in-memory fake, SQLite, and the cache over SQLite. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CachingAuthStateStore } from '#shared/adapters/caching/caching-auth-state-store.js';
import { MemoryAuthStateStore } from '#shared/adapters/memory/memory-auth-state-store.js';
import { SqliteAuthStateStore } from '#shared/adapters/sqlite/sqlite-auth-state-store.js';
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import { authStateStoreContract } from './auth-state-store.contract.js';

/** A SQLite store on a fresh temp folder (wrapped by `wrap`); close shuts it and removes the folder. */
function onTempDir(wrap: (store: AuthStateStore) => AuthStateStore = (store) => store) {
  return async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-auth-'));
    const store = wrap(new SqliteAuthStateStore(dir));
    return {
      store,
      close: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  };
}

authStateStoreContract('memory', async () => {
  const store = new MemoryAuthStateStore();
  return { store, close: () => store.close() };
});

authStateStoreContract('sqlite', onTempDir());

authStateStoreContract(
  'caching(sqlite)',
  onTempDir((inner) => new CachingAuthStateStore(inner)),
);

// A budget small enough that the contract's bulk tests evict constantly: eviction must never change answers.
authStateStoreContract(
  'caching(sqlite), tiny budget',
  onTempDir((inner) => new CachingAuthStateStore(inner, { maxCharsPerSession: 2_000 })),
);
