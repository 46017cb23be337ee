/**
 * `iq xmlns=encrypt`: the companion's pre-key count, upload, signed pre-key rotation and digest, and pre-key
 * bundle fetches for any device. Handing out a companion bundle consumes one of its uploaded one-time pre-keys;
 * when few remain, the server sends `notification type=encrypt <count>` so the client uploads more.
 */
import { randomBytes } from 'node:crypto';
import type { PreKeyBundle } from '#tests/wa-sim/crypto/signal-device.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  child,
  childBytes,
  children,
  firstChild,
  iqError,
  iqResult,
  makeNode,
  readUintBE,
  SERVER_JID,
  uintBE,
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import type { ClientConnection, CompanionDevice } from './accounts.js';

/** Below this many uploaded pre-keys the server asks for more (Baileys' MIN_PREKEY_COUNT). */
const PRE_KEY_LOW_WATER = 5;
const KEY_TYPE = Buffer.from([5]);

/** Answers an `encrypt` iq from a logged-in companion. */
export function handleEncryptIq(sim: Simulator, connection: ClientConnection, iq: BinaryNode): BinaryNode {
  const device = connection.device;
  const request = firstChild(iq);
  if (!device || !request) return iqResult(iq);
  switch (request.tag) {
    case 'count':
      return iqResult(iq, [makeNode('count', { value: String(device.preKeys.size) })]);
    case 'digest':
      return iqResult(iq, [digestNode(device)]);
    case 'key':
      return iqResult(iq, [makeNode('list', {}, children(request, 'user').map(bundleFor(sim)))]);
    case 'rotate': {
      const signed = readSignedPreKey(child(request, 'skey'));
      if (!signed) return iqError(iq, 400, 'bad-request');
      device.signedPreKey = signed;
      return iqResult(iq);
    }
  }
  const list = child(iq, 'list');
  if (iq.attrs.type === 'set' && list) {
    for (const key of children(list, 'key')) {
      const id = readUintBE(childBytes(key, 'id'));
      const value = childBytes(key, 'value');
      if (id !== undefined && value) device.preKeys.set(id, value);
    }
    const signed = readSignedPreKey(child(iq, 'skey'));
    if (signed) device.signedPreKey = signed;
    device.preKeyLowSent = false;
    sim.log.debug(`${device.account.phone}:${device.deviceId} uploaded pre-keys; now ${device.preKeys.size}`);
    return iqResult(iq);
  }
  return iqResult(iq);
}

/** Takes a bundle for a companion, consuming one uploaded one-time pre-key when any is left. */
export function takeCompanionBundle(sim: Simulator, device: CompanionDevice): PreKeyBundle {
  const next = device.preKeys.entries().next();
  let preKey: PreKeyBundle['preKey'];
  if (!next.done) {
    const [keyId, publicKey] = next.value;
    device.preKeys.delete(keyId);
    preKey = { keyId, publicKey };
  }
  checkPreKeyLow(sim, device);
  return {
    registrationId: device.registrationId,
    identityKey: device.identityPublic,
    signedPreKey: device.signedPreKey,
    preKey,
  };
}

/** Asks a connected companion for more pre-keys once its stock falls below the low-water mark. */
export function checkPreKeyLow(sim: Simulator, device: CompanionDevice): void {
  const count = device.preKeys.size;
  if (count >= PRE_KEY_LOW_WATER || device.preKeyLowSent || !device.connection?.isOpen) return;
  device.preKeyLowSent = true;
  sim.log.info(`${device.account.phone}:${device.deviceId} pre-keys low (${count}); asking for more`);
  device.connection.send(
    makeNode(
      'notification',
      { from: SERVER_JID, type: 'encrypt', id: randomBytes(8).toString('hex'), t: String(unixNow()) },
      [makeNode('count', { value: String(count) })],
    ),
  );
}

/** The `<user>` node of a key-fetch answer. */
function bundleNode(jid: string, bundle: PreKeyBundle): BinaryNode {
  const content: BinaryNode[] = [
    makeNode('registration', {}, uintBE(bundle.registrationId, 4)),
    makeNode('type', {}, KEY_TYPE),
    makeNode('identity', {}, bundle.identityKey),
    makeNode('skey', {}, [
      makeNode('id', {}, uintBE(bundle.signedPreKey.keyId, 3)),
      makeNode('value', {}, bundle.signedPreKey.publicKey),
      makeNode('signature', {}, bundle.signedPreKey.signature),
    ]),
  ];
  if (bundle.preKey) {
    content.push(
      makeNode('key', {}, [
        makeNode('id', {}, uintBE(bundle.preKey.keyId, 3)),
        makeNode('value', {}, bundle.preKey.publicKey),
      ]),
    );
  }
  return makeNode('user', { jid }, content);
}

function bundleFor(sim: Simulator): (user: BinaryNode) => BinaryNode {
  return (user) => {
    const jid = user.attrs.jid ?? '';
    const who = sim.directory.resolve(jid);
    let bundle: PreKeyBundle | undefined;
    if (who?.kind === 'phone') bundle = who.account.primary.createBundle();
    else if (who?.kind === 'contact') bundle = who.contact.device.createBundle();
    else if (who?.kind === 'companion' && who.device && !who.device.loggedOut) {
      bundle = takeCompanionBundle(sim, who.device);
    }
    if (!bundle)
      return makeNode('user', { jid }, [makeNode('error', { code: '404', text: 'item-not-found' })]);
    return bundleNode(jid, bundle);
  };
}

function readSignedPreKey(node: BinaryNode | undefined): CompanionDevice['signedPreKey'] | undefined {
  const keyId = readUintBE(childBytes(node, 'id'));
  const publicKey = childBytes(node, 'value');
  const signature = childBytes(node, 'signature');
  return keyId !== undefined && publicKey && signature ? { keyId, publicKey, signature } : undefined;
}

function digestNode(device: CompanionDevice): BinaryNode {
  const ids = [...device.preKeys.keys()].map((id) => makeNode('id', {}, uintBE(id, 3)));
  return makeNode('digest', {}, [
    makeNode('type', {}, KEY_TYPE),
    makeNode('registration', {}, uintBE(device.registrationId, 4)),
    makeNode('identity', {}, device.identityPublic),
    makeNode('skey', {}, [
      makeNode('id', {}, uintBE(device.signedPreKey.keyId, 3)),
      makeNode('value', {}, device.signedPreKey.publicKey),
      makeNode('signature', {}, device.signedPreKey.signature),
    ]),
    makeNode('list', {}, ids),
  ]);
}
