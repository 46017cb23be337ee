/**
 * App-state sync (`iq xmlns=w:sync:app:state`). The server keeps each account's collections as the ordered patches
 * its devices wrote, encrypted with the account's app-state key it never reads: a device asks from the version it
 * has (`<collection name version>`) and gets the patches after it inline (`<patches><patch>SyncdPatch</patch>`;
 * no snapshot blob, even from version 0), or uploads its own (`<collection version><patch>`), which the other
 * devices then hear of; the phone opens and checks those (`app-state-upload.ts`) and applies their chat and label
 * actions. The simulated phone writes patches here too (`phoneWrite`, `phoneMakes`), and tells the companions with
 * `<notification type=server_sync><collection name version/>`, on which Baileys fetches the collection whatever its
 * history settings. The LT hash is kept so each phone patch carries the snapshot and patch MACs a client checks.
 */
import { randomBytes } from 'node:crypto';
import { proto } from '@whiskeysockets/baileys';
import {
  EMPTY_LT_HASH,
  type MutationContent,
  MutationRejected,
  mixMutation,
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
import { type OpenedUpload, openUpload } from './app-state-upload.js';
import { applyChatAction } from './chat-state.js';
import { applyLabelAction } from './label-state.js';

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

/**
 * A device's own patches, written on top of `version`: refused (409) unless that is the latest, and (400) unless
 * every MAC holds (`app-state-upload.ts`). Accepted ones are kept in order, their chat and label actions applied to
 * the phone's chats and labels, and the account's other companions told.
 */
function takeUploads(
  sim: Simulator,
  device: CompanionDevice,
  name: string,
  collection: AppStateCollection,
  version: number,
  uploads: readonly BinaryNode[],
): BinaryNode {
  if (version !== collection.patches.length) return collectionError(name, '409', 'conflict');
  const account = device.account;
  let upload: OpenedUpload;
  try {
    upload = openUpload(
      account,
      name,
      collection,
      uploads.flatMap((node) => bytesOf(node) ?? []),
    );
  } catch (error) {
    if (!(error instanceof MutationRejected)) throw error;
    sim.log.warn(`${account.phone}:${device.deviceId} app-state upload to ${name} refused: ${error.message}`);
    return collectionError(name, '400', 'bad-request');
  }
  collection.hash = upload.state.hash;
  collection.valueMacs.clear();
  for (const [index, mac] of upload.state.valueMacs) collection.valueMacs.set(index, mac);
  collection.patches.push(...upload.patches);
  for (const mutation of upload.mutations) applyToPhone(account, mutation);
  announceCollection(sim, account, name, device);
  return makeNode('collection', { name, version: String(collection.patches.length) });
}

function collectionError(name: string, code: string, text: string): BinaryNode {
  return makeNode('collection', { name, type: 'error' }, [makeNode('error', { code, text })]);
}

/** The phone writes one patch of `contents` to its collection `name`; answers the new version. */
export function phoneWrite(account: Account, name: string, contents: readonly MutationContent[]): number {
  const collection = collectionOf(account, name);
  const keys = mutationKeys(account.appStateKey.keyData);
  const keyId = account.appStateKey.keyId;
  const sealed = contents.map((content) => sealMutation(keys, keyId, content));
  for (const { indexMac, valueMac, mutation } of sealed)
    mixMutation(collection, indexMac, valueMac, mutation.operation);
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

/** Applies one mutation to what the phone shows: its chats or its labels; the rest is kept but not interpreted. */
function applyToPhone(account: Account, mutation: MutationContent): void {
  if (!applyChatAction(account, mutation)) applyLabelAction(account, mutation);
}

/** One change the phone makes: a mutation of collection `collection`. */
export interface PhoneMutation {
  readonly collection: string;
  readonly content: MutationContent;
}

/** A collection a change of the phone wrote to and the version it reached. */
export interface WrittenPatch {
  readonly collection: string;
  readonly version: number;
}

/**
 * The phone makes `changes`: applies each to what it shows, writes one patch per collection (mutations in the order
 * given) and tells every companion (`server_sync`). Answers the patches written and how many companions were told.
 */
export function phoneMakes(
  sim: Simulator,
  account: Account,
  changes: readonly PhoneMutation[],
): { written: WrittenPatch[]; notified: number } {
  const byCollection = new Map<string, MutationContent[]>();
  for (const { collection, content } of changes) {
    byCollection.set(collection, [...(byCollection.get(collection) ?? []), content]);
    applyToPhone(account, content);
  }
  const written: WrittenPatch[] = [];
  let notified = 0;
  for (const [collection, contents] of byCollection) {
    written.push({ collection, version: phoneWrite(account, collection, contents) });
    notified = announceCollection(sim, account, collection);
  }
  return { written, notified };
}

/** `<notification type=server_sync>`: collection `name` changed; clients fetch it. */
export function serverSyncNotification(name: string, version: number): BinaryNode {
  return makeNode(
    'notification',
    { from: SERVER_JID, type: 'server_sync', id: randomBytes(8).toString('hex'), t: String(unixNow()) },
    [makeNode('collection', { name, version: String(version) })],
  );
}

/** Points a new companion at every collection the account has written, as after any change (`server_sync`). */
export function offerCollections(sim: Simulator, device: CompanionDevice): void {
  for (const [name, collection] of device.account.appState) {
    if (collection.patches.length > 0) {
      sim.deliver(device, serverSyncNotification(name, collection.patches.length));
    }
  }
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
