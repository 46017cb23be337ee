/**
 * The patches a companion uploads (`<collection version><patch>SyncdPatch</patch>`), opened as the phone, which holds
 * the account's app-state key, reads them: every mutation's value MAC, value and index MAC checked, then the patch's
 * snapshot MAC against the LT hash the collection reaches with it and the patch MAC over that and the value MACs.
 * Anything that does not hold refuses the whole upload, as WhatsApp refuses a patch it cannot verify, and nothing of
 * it is kept.
 */
import { proto } from '@whiskeysockets/baileys';
import {
  type LtHashState,
  MutationRejected,
  mixMutation,
  mutationKeys,
  type OpenedMutation,
  openMutation,
  patchMac,
  sameBytes,
  snapshotMac,
} from '#tests/wa-sim/crypto/app-state-crypto.js';
import type { Account, AppStateCollection } from './accounts.js';

/** What an accepted upload adds: its patches numbered for storage, the collection's state after them, its mutations. */
export interface OpenedUpload {
  readonly patches: readonly Buffer[];
  readonly state: LtHashState;
  readonly mutations: readonly OpenedMutation[];
}

/**
 * Opens the encoded patches `uploads`, written on top of the collection's latest version, in order. Throws
 * `MutationRejected` with the reason when a patch cannot be decoded or a MAC does not hold.
 */
export function openUpload(
  account: Account,
  name: string,
  collection: AppStateCollection,
  uploads: readonly Buffer[],
): OpenedUpload {
  const keys = mutationKeys(account.appStateKey.keyData);
  const keyId = account.appStateKey.keyId;
  // Worked on a copy: the collection changes only once the whole upload holds.
  const state: LtHashState = { hash: collection.hash, valueMacs: new Map(collection.valueMacs) };
  const patches: Buffer[] = [];
  const mutations: OpenedMutation[] = [];
  let version = collection.patches.length;
  for (const bytes of uploads) {
    const patch = decodePatch(bytes);
    version++;
    const opened = patch.mutations.map((mutation) => openMutation(keys, keyId, mutation));
    for (const mutation of opened)
      mixMutation(state, mutation.indexMac, mutation.valueMac, mutation.operation);
    const snapshot = snapshotMac(keys, state.hash, version, name);
    if (!patch.snapshotMac || !sameBytes(snapshot, patch.snapshotMac)) {
      throw new MutationRejected(`snapshot MAC mismatch at ${name} v${version}`);
    }
    const expected = patchMac(
      keys,
      snapshot,
      opened.map((mutation) => mutation.valueMac),
      version,
      name,
    );
    if (!patch.patchMac || !sameBytes(expected, patch.patchMac)) {
      throw new MutationRejected(`patch MAC mismatch at ${name} v${version}`);
    }
    // Stored with its version, so a later fetch of several patches numbers each one.
    patch.version = { version };
    patches.push(Buffer.from(proto.SyncdPatch.encode(patch).finish()));
    mutations.push(...opened);
  }
  return { patches, state, mutations };
}

function decodePatch(bytes: Buffer): proto.SyncdPatch {
  try {
    return proto.SyncdPatch.decode(bytes);
  } catch {
    throw new MutationRejected('not a SyncdPatch');
  }
}
