/**
 * The phone's app-state patches against Baileys' own decoder with every MAC checked: the values decrypt, each patch
 * MAC holds, and the LT hash a client computes equals the one the server keeps (a wrong one would stop the client
 * at the first patch whose snapshot MAC disagrees).
 */
import { decodePatches, newLTHashState, proto } from '@whiskeysockets/baileys';
import pino from 'pino';
import { AccountRegistry } from '#tests/wa-sim/accounts/accounts.js';
import { collectionOf, phoneWrite } from '#tests/wa-sim/accounts/app-state.js';
import { IdAllocator } from '#tests/wa-sim/accounts/ids.js';
import type { MutationContent } from './app-state-crypto.js';

const NAME = 'critical_unblock_low';
const { SET, REMOVE } = proto.SyncdMutation.SyncdOperation;

function contact(
  operation: proto.SyncdMutation.SyncdOperation,
  number: string,
  fullName: string,
): MutationContent {
  return {
    operation,
    index: ['contact', `${number}@s.whatsapp.net`],
    value: { timestamp: 1, contactAction: { fullName } },
    apiVersion: 2,
  };
}

describe('app-state patches', () => {
  it('decode in Baileys with every MAC checked, to the LT hash the server keeps', async () => {
    const account = new AccountRegistry(new IdAllocator()).getOrCreate('15550030001');
    phoneWrite(account, NAME, [contact(SET, '15550030101', 'Alice')]);
    phoneWrite(account, NAME, [contact(SET, '15550030102', 'Bob'), contact(SET, '15550030103', 'Carol')]);
    phoneWrite(account, NAME, [contact(SET, '15550030101', 'Alice Smith')]);
    phoneWrite(account, NAME, [contact(REMOVE, '15550030103', 'Carol')]);
    const collection = collectionOf(account, NAME);
    const patches = collection.patches.map((bytes) => proto.SyncdPatch.decode(bytes));
    const keyData = proto.Message.AppStateSyncKeyData.fromObject({ keyData: account.appStateKey.keyData });
    const { state, mutationMap } = await decodePatches(
      NAME,
      patches,
      newLTHashState(),
      async () => keyData,
      {},
      undefined,
      pino({ level: 'silent' }),
      true,
    );
    expect(state.version).toBe(4);
    expect(Buffer.from(state.hash).equals(collection.hash)).toBe(true);
    const names = Object.values(mutationMap).map((mutation) => [
      mutation.index[1],
      mutation.syncAction.value?.contactAction?.fullName,
    ]);
    expect(names.sort()).toEqual([
      ['15550030101@s.whatsapp.net', 'Alice Smith'],
      ['15550030102@s.whatsapp.net', 'Bob'],
      ['15550030103@s.whatsapp.net', 'Carol'],
    ]);
    expect(Object.keys(state.indexValueMap)).toHaveLength(2);
  });
});
