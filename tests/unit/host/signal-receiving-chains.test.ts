import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as libsignal from 'libsignal';
import * as curve from 'libsignal/src/curve.js';
import { loadAuthState } from '#host/engines/baileys/baileys-auth-state.js';
import { boundReceivingChains, MAX_RECEIVING_CHAINS } from '#host/engines/baileys/signal-receiving-chains.js';
import { SqliteAuthStateStore } from '#shared/adapters/sqlite/sqlite-auth-state-store.js';
import { withKeyType } from '#tests/wa-sim/crypto/crypto.js';
import { SignalDevice } from '#tests/wa-sim/crypto/signal-device.js';

type Chains = Record<string, { chainType: number }>;
interface StoredRecord {
  _sessions: Record<string, { _chains: Chains; currentRatchet: { lastRemoteEphemeralKey: string } }>;
}

const receivingChains = (record: StoredRecord): number =>
  Object.values(record._sessions).reduce(
    (sum, entry) => sum + Object.values(entry._chains).filter((chain) => chain.chainType === 2).length,
    0,
  );

/**
 * Our side of a conversation as Baileys runs it: libsignal over the auth-state adapter (loadSession deserialises
 * what `keys.get` answers, storeSession writes `record.serialize()` through `keys.set`), on a real SQLite store.
 * The contact is the simulator's Signal device.
 */
async function conversation(rounds: number) {
  const authDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-chains-'));
  const store = new SqliteAuthStateStore(authDir);
  const sessionId = randomUUID();
  const { state } = await loadAuthState(store, sessionId, () => true);
  const pair = curve.generateKeyPair();
  const identity = { pubKey: Buffer.from(pair.pubKey), privKey: Buffer.from(pair.privKey) };
  const storage: libsignal.SignalStorage = {
    loadSession: async (id: string) => {
      const { [id]: stored } = await state.keys.get('session', [id]);
      return stored ? libsignal.SessionRecord.deserialize(stored) : undefined;
    },
    storeSession: async (id: string, record: libsignal.SessionRecord) => {
      await state.keys.set({ session: { [id]: record.serialize() } });
    },
    isTrustedIdentity: () => true,
    loadPreKey: async () => undefined,
    removePreKey: () => {},
    loadSignedPreKey: () => identity,
    getOurRegistrationId: () => 4242,
    getOurIdentity: () => identity,
  };

  const contact = new SignalDevice();
  const contactAddress = new libsignal.ProtocolAddress('15550001234', 0);
  const us = { user: '15550004321', device: 0 };
  const bundle = contact.createBundle();
  if (!bundle.preKey) throw new Error('the contact handed out no one-time pre-key');
  await new libsignal.SessionBuilder(storage, contactAddress).initOutgoing({
    registrationId: bundle.registrationId,
    identityKey: withKeyType(bundle.identityKey),
    signedPreKey: { ...bundle.signedPreKey, publicKey: withKeyType(bundle.signedPreKey.publicKey) },
    preKey: { keyId: bundle.preKey.keyId, publicKey: withKeyType(bundle.preKey.publicKey) },
  });
  const cipher = new libsignal.SessionCipher(storage, contactAddress);
  const delivered: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const sent = await cipher.encrypt(Buffer.from(`ours ${i}`));
    const type = sent.type === 3 ? 'pkmsg' : 'msg';
    delivered.push((await contact.decrypt(us, type, Buffer.from(sent.body, 'binary'))).toString());
    const reply = await contact.encrypt(us, Buffer.from(`theirs ${i}`));
    delivered.push((await cipher.decryptWhisperMessage(reply.ciphertext)).toString());
  }
  const stored = await store.readKeys(sessionId, 'session', [contactAddress.toString()]);
  await store.close();
  fs.rmSync(authDir, { recursive: true, force: true });
  const text = stored.get(contactAddress.toString());
  if (text === undefined) throw new Error('no stored session');
  return { delivered, record: JSON.parse(text) as StoredRecord };
}

describe('Signal sessions stored through the Baileys auth state', () => {
  it(`keep at most ${MAX_RECEIVING_CHAINS} receiving chains however long the conversation goes back and forth`, async () => {
    const { delivered, record } = await conversation(30);

    expect(delivered).toHaveLength(60);
    expect(delivered.at(-1)).toBe('theirs 29');
    expect(receivingChains(record)).toBe(MAX_RECEIVING_CHAINS);
  });
});

describe('boundReceivingChains', () => {
  const chain = (chainType: number) => ({ chainType, chainKey: { counter: 0 }, messageKeys: {} });
  const record = (keys: string[], current: string) => ({
    _sessions: {
      base: {
        currentRatchet: { lastRemoteEphemeralKey: current },
        _chains: Object.fromEntries([
          ['ours', chain(1)],
          ...keys.map((key): [string, ReturnType<typeof chain>] => [key, chain(2)]),
        ]),
      },
    },
  });

  it('drops the oldest receiving chains and keeps the sending chain', () => {
    const value = record(['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7'], 'r7');
    boundReceivingChains(value);
    expect(Object.keys(value._sessions.base._chains)).toEqual(['ours', 'r3', 'r4', 'r5', 'r6', 'r7']);
  });

  it('never drops the chain the ratchet currently receives on', () => {
    const value = record(['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7'], 'r1');
    boundReceivingChains(value);
    expect(Object.keys(value._sessions.base._chains)).toEqual(['ours', 'r1', 'r4', 'r5', 'r6', 'r7']);
  });

  it('leaves values that are not session records alone', () => {
    const values = [null, 'text', [1, 2], { _sessions: 'x' }, { _sessions: { a: { _chains: null } } }];
    const copies = structuredClone(values);
    for (const value of values) boundReceivingChains(value);
    expect(values).toEqual(copies);
  });
});
