/**
 * App-state sync (`iq xmlns=w:sync:app:state`). The server keeps each account's collections as the ordered patches
 * its devices wrote, encrypted with the account's app-state key it never reads: a device asks from the version it
 * has (`<collection name version>`) and gets the patches after it inline (`<patches><patch>SyncdPatch</patch>`;
 * no snapshot blob, even from version 0), or uploads its own (`<collection version><patch>`), which the other
 * devices then hear of. The simulated phone writes patches here too (`phoneWrite`), and tells the companions with
 * `<notification type=server_sync><collection name version/>`, on which Baileys fetches the collection whatever its
 * history settings. The LT hash is kept so each phone patch carries the snapshot and patch MACs a client checks.
 */
import { randomBytes } from 'node:crypto';
import { proto } from '@whiskeysockets/baileys';
import {
  EMPTY_LT_HASH,
  ltHashUpdate,
  type MutationContent,
  mutationKeys,
  patchMac,
  sealMutation,
  snapshotMac,
} from '#tests/wa-sim/crypto/app-state-crypto.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  bytesOf,
  child,
  children,
  iqResult,
  makeNode,
  SERVER_JID,
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import type { Account, AppStateCollection, ClientConnection, CompanionDevice } from './accounts.js';
import { linkedCompanions } from './accounts.js';

/** The account's collection `name`, empty until something is written to it. */
export function collectionOf(account: Account, name: string): AppStateCollection {
  let collection = account.appState.get(name);
  if (!collection) {
    collection = { patches: [], hash: EMPTY_LT_HASH, valueMacs: new Map() };
    account.appState.set(name, collection);
  }
  return collection;
}

/** Answers a client's app-state iq: the patches after each asked version, or its own patches taken in. */
export function handleAppStateIq(sim: Simulator, connection: ClientConnection, iq: BinaryNode): BinaryNode {
  const device = connection.device;
  const answers: BinaryNode[] = [];
  for (const request of children(child(iq, 'sync'), 'collection')) {
    const name = request.attrs.name;
    if (!name || !device) continue;
    const collection = collectionOf(device.account, name);
    const uploads = children(request, 'patch');
    const version = Number(request.attrs.version ?? 0);
    if (uploads.length > 0) {
      answers.push(takeUploads(sim, device, name, collection, version, uploads));
      continue;
    }
    const newer = collection.patches.slice(version);
    const patches = newer.map((patch) => makeNode('patch', {}, patch));
    answers.push(
      makeNode(
        'collection',
        { name, version: String(collection.patches.length) },
        patches.length > 0 ? [makeNode('patches', {}, patches)] : undefined,
      ),
    );
  }
  return iqResult(iq, [makeNode('sync', {}, answers)]);
}

/** A device's own patches, written on top of `version`: refused (409) unless that is the latest. */
function takeUploads(
  sim: Simulator,
  device: CompanionDevice,
  name: string,
  collection: AppStateCollection,
  version: number,
  uploads: readonly BinaryNode[],
): BinaryNode {
  if (version !== collection.patches.length) {
    return makeNode('collection', { name, type: 'error' }, [
      makeNode('error', { code: '409', text: 'conflict' }),
    ]);
  }
  for (const upload of uploads) {
    const bytes = bytesOf(upload);
    if (!bytes) continue;
    const patch = proto.SyncdPatch.decode(bytes);
    for (const mutation of patch.mutations) {
      const indexMac = mutation.record?.index?.blob;
      const value = mutation.record?.value?.blob;
      if (!indexMac || !value) continue;
      mix(collection, Buffer.from(indexMac), Buffer.from(value).subarray(-32), mutation.operation);
    }
    // Stored with its version, so a later fetch of several patches numbers each one.
    patch.version = { version: collection.patches.length + 1 };
    collection.patches.push(Buffer.from(proto.SyncdPatch.encode(patch).finish()));
  }
  announceCollection(sim, device.account, name, device);
  return makeNode('collection', { name, version: String(collection.patches.length) });
}

/** The phone writes one patch of `contents` to its collection `name`; answers the new version. */
export function phoneWrite(account: Account, name: string, contents: readonly MutationContent[]): number {
  const collection = collectionOf(account, name);
  const keys = mutationKeys(account.appStateKey.keyData);
  const keyId = account.appStateKey.keyId;
  const sealed = contents.map((content) => sealMutation(keys, keyId, content));
  for (const { indexMac, valueMac, mutation } of sealed)
    mix(collection, indexMac, valueMac, mutation.operation);
  const version = collection.patches.length + 1;
  const snapshot = snapshotMac(keys, collection.hash, version, name);
  const valueMacs = sealed.map(({ valueMac }) => valueMac);
  const patch = proto.SyncdPatch.encode({
    version: { version },
    mutations: sealed.map(({ mutation }) => mutation),
    snapshotMac: snapshot,
    patchMac: patchMac(keys, snapshot, valueMacs, version, name),
    keyId: { id: keyId },
  }).finish();
  collection.patches.push(Buffer.from(patch));
  return version;
}

/** Folds one mutation into the collection's LT hash: a write replaces the index's earlier value, a removal drops it. */
function mix(
  collection: AppStateCollection,
  indexMac: Buffer,
  valueMac: Buffer,
  operation: proto.SyncdMutation.SyncdOperation | null | undefined,
): void {
  const key = indexMac.toString('base64');
  const previous = collection.valueMacs.get(key);
  const removed = previous ? [previous] : [];
  if (operation === proto.SyncdMutation.SyncdOperation.REMOVE) {
    collection.valueMacs.delete(key);
    collection.hash = ltHashUpdate(collection.hash, removed, []);
    return;
  }
  collection.valueMacs.set(key, valueMac);
  collection.hash = ltHashUpdate(collection.hash, removed, [valueMac]);
}

/** `<notification type=server_sync>`: collection `name` changed; clients fetch it. */
export function serverSyncNotification(name: string, version: number): BinaryNode {
  return makeNode(
    'notification',
    { from: SERVER_JID, type: 'server_sync', id: randomBytes(8).toString('hex'), t: String(unixNow()) },
    [makeNode('collection', { name, version: String(version) })],
  );
}

/** Tells the account's companions (but `skip`) that collection `name` changed, queued for offline ones. */
export function announceCollection(
  sim: Simulator,
  account: Account,
  name: string,
  skip?: CompanionDevice,
): number {
  const notification = serverSyncNotification(name, collectionOf(account, name).patches.length);
  const told = linkedCompanions(account).filter((device) => device !== skip);
  for (const device of told) sim.deliver(device, notification);
  return told.length;
}
