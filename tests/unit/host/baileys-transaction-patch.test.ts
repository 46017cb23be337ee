/**
 * Waygate's patch of Baileys' key-store transactions (patches/@whiskeysockets+baileys+*.patch, Utils/auth-utils.js).
 * Work that a transaction starts and leaves running inherits its async context; stock Baileys then files that work's
 * writes under the transaction after it has committed, where nothing commits them again. The tctoken issuance after
 * each send is such work: its record never reached the store, so the next send issued a token again (one privacy iq
 * for about every third send in the send benchmark). Patched, an ended transaction's context counts as none.
 */
import { describe, expect, it } from '@jest/globals';
import { addTransactionCapability, type SignalDataTypeMap } from '@whiskeysockets/baileys';

type Stored = Record<string, Record<string, unknown>>;
// Baileys' store and logger types are wider than what these tests call.
type Store = Parameters<typeof addTransactionCapability>[0];
type Logger = Parameters<typeof addTransactionCapability>[1];

/** A key store in memory that records what was written, as our auth-state store would persist it. */
function memoryKeys() {
  const stored: Stored = {};
  const writes: Stored[] = [];
  const store = {
    async get(type: string, ids: string[]) {
      return Object.fromEntries(
        ids.flatMap((id) => (id in (stored[type] ?? {}) ? [[id, stored[type]?.[id]]] : [])),
      );
    },
    async set(data: Stored) {
      writes.push(structuredClone(data));
      for (const [type, values] of Object.entries(data)) stored[type] = { ...stored[type], ...values };
    },
  };
  const silent = {
    level: 'silent',
    child: () => silent,
    trace() {},
    debug() {},
    info() {},
    warn() {},
    error() {},
  };
  const keys = addTransactionCapability(store as unknown as Store, silent as unknown as Logger, {
    maxCommitRetries: 1,
    delayBetweenTriesMs: 0,
  });
  return { keys, stored, writes };
}

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));
const token = (t: number) => ({ token: Buffer.alloc(0), senderTimestamp: t }) as SignalDataTypeMap['tctoken'];

describe("Baileys' key-store transactions (patched)", () => {
  it('commits what work left running writes after the transaction ended', async () => {
    const { keys, stored } = memoryKeys();
    let later: Promise<void> = Promise.resolve();
    await keys.transaction(async () => {
      await keys.set({ session: { alice: Buffer.from('ratchet') } });
      // Fire and forget, as the tctoken issuance after a send: it finishes after the transaction has committed.
      later = tick().then(() => keys.set({ tctoken: { alice: token(1_790_000_000) } }));
    }, 'me');
    expect(stored.session?.alice).toEqual(Buffer.from('ratchet'));
    expect(stored.tctoken).toBeUndefined();
    await later;
    expect(stored.tctoken?.alice).toEqual(token(1_790_000_000));
  });

  it('still holds the writes of the work itself until its commit, in one write', async () => {
    const { keys, stored, writes } = memoryKeys();
    await keys.transaction(async () => {
      await keys.set({ session: { alice: Buffer.from('one') } });
      await keys.set({ session: { bob: Buffer.from('two') } });
      expect(stored.session).toBeUndefined();
      // Reads inside the transaction see its own writes.
      expect(await keys.get('session', ['alice'])).toEqual({ alice: Buffer.from('one') });
    }, 'me');
    expect(writes).toHaveLength(1);
    expect(Object.keys(stored.session ?? {}).sort()).toEqual(['alice', 'bob']);
  });

  it('gives a transaction started by left-running work one of its own, committed when it ends', async () => {
    const { keys, stored } = memoryKeys();
    let later: Promise<void> = Promise.resolve();
    await keys.transaction(async () => {
      later = tick().then(() =>
        keys.transaction(async () => {
          expect(keys.isInTransaction()).toBe(true);
          await keys.set({ session: { carol: Buffer.from('three') } });
        }, 'me'),
      );
    }, 'me');
    expect(keys.isInTransaction()).toBe(false);
    await later;
    expect(stored.session?.carol).toEqual(Buffer.from('three'));
  });
});
