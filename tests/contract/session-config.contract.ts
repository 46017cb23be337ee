/**
 * The `expectConfig` condition of SessionStore.update (a config merge writes only over the config it read). Run from
 * `sessionStoreContract`, so every adapter gets it; DynamoDB's half is the ConditionExpression, which only the
 * concurrent case reaches (both writers pass the check on the row they read).
 */
import type { SessionStore } from '#shared/ports/session-store.port.js';
import { aSession } from '#tests/helpers/builders.js';

export function sessionConfigContract(
  name: string,
  open: () => Promise<{ store: SessionStore; close(): Promise<void> }>,
): void {
  describe(`SessionStore contract, expectConfig: ${name}`, () => {
    let store: SessionStore;
    let close: () => Promise<void>;

    beforeEach(async () => {
      ({ store, close } = await open());
    });
    afterEach(async () => {
      await close();
    });

    const original = { maxReconnectAttempts: 3, custom: { nested: ['a', 1] } };

    it('writes when the stored config equals expectConfig, key order aside', async () => {
      const session = aSession({ config: original });
      await store.create(session);
      const result = await store.update(
        session.id,
        { config: { ...original, autoRejectCalls: true } },
        { expectConfig: { custom: { nested: ['a', 1] }, maxReconnectAttempts: 3 } },
      );
      expect(result).toMatchObject({ outcome: 'updated', session: { config: { autoRejectCalls: true } } });
    });

    it('answers conflict and writes nothing when the config differs', async () => {
      const session = aSession({ config: original });
      await store.create(session);
      for (const stale of [{}, { ...original, maxReconnectAttempts: 4 }, { maxReconnectAttempts: 3 }]) {
        const result = await store.update(session.id, { config: {} }, { expectConfig: stale });
        expect(result).toEqual({ outcome: 'conflict', session });
      }
      expect(await store.findById(session.id)).toEqual(session);
    });

    it('lets exactly one of two concurrent merges from the same read win', async () => {
      const session = aSession({ config: original });
      await store.create(session);
      const merge = (key: string) =>
        store.update(session.id, { config: { ...original, [key]: true } }, { expectConfig: original });
      const results = await Promise.all([merge('a'), merge('b')]);
      expect(results.map((r) => r.outcome).sort()).toEqual(['conflict', 'updated']);
      const stored = (await store.findById(session.id))!.config;
      expect(Object.keys(stored).filter((key) => key === 'a' || key === 'b')).toHaveLength(1);
    });
  });
}
