/**
 * `iq xmlns=usync`: who is on WhatsApp (`contact`), their devices (`devices`, key-index on companions), their
 * LID (`lid`, for users asked by number: Baileys 7 learns the LID ↔ number mapping from it), about text (`status`:
 * a contact's own, empty when it has none) and disappearing mode. Unknown numbers answer `contact type=out` and no
 * devices, which is how clients learn a number is not on WhatsApp.
 */

import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  child,
  children,
  iqResult,
  lidJid,
  makeNode,
  parseJid,
  S_WA,
  textOf,
} from '#tests/wa-sim/transport/binary.js';
import type { Account } from './accounts.js';
import { linkedCompanions } from './accounts.js';
import { type Contact, DEFAULT_ABOUT } from './contacts.js';

type Owner = { readonly account: Account } | { readonly contact: Contact } | undefined;

/** Answers a usync query. */
export function handleUsyncIq(sim: Simulator, iq: BinaryNode): BinaryNode {
  const usync = child(iq, 'usync');
  const protocols = children(child(usync, 'query')).map((node) => node.tag);
  const users = children(child(usync, 'list'), 'user').map((user) => userResult(sim, user, protocols));
  return iqResult(iq, [
    makeNode(
      'usync',
      {
        sid: usync?.attrs.sid,
        index: '0',
        last: 'true',
        mode: usync?.attrs.mode,
        context: usync?.attrs.context,
      },
      [makeNode('result'), makeNode('list', {}, users)],
    ),
  ]);
}

function userResult(sim: Simulator, user: BinaryNode, protocols: readonly string[]): BinaryNode {
  const phoneQuery = textOf(child(user, 'contact'));
  const jid = user.attrs.jid ?? `${(phoneQuery ?? '').replace(/\D/g, '')}@${S_WA}`;
  const owner: Owner = sim.directory.owner(jid);
  const content: BinaryNode[] = [];
  for (const protocol of protocols) {
    const node = protocolNode(protocol, owner, parseJid(jid)?.isLid === true);
    if (node) content.push(node);
  }
  return makeNode('user', { jid }, content);
}

function protocolNode(protocol: string, owner: Owner, askedByLid: boolean): BinaryNode | undefined {
  switch (protocol) {
    case 'contact':
      return makeNode('contact', { type: owner ? 'in' : 'out' });
    case 'devices':
      return makeNode('devices', {}, [makeNode('device-list', {}, owner ? deviceNodes(owner) : [])]);
    case 'lid': {
      if (!owner || askedByLid) return undefined;
      const lid = 'account' in owner ? owner.account.lid : owner.contact.lid;
      return makeNode('lid', { val: lidJid(lid) });
    }
    case 'status': {
      if (!owner) return makeNode('status', { code: '404' });
      const about = 'account' in owner ? DEFAULT_ABOUT : owner.contact.config.about;
      // No about text is an empty status, which Baileys reads as null.
      return makeNode('status', { t: '1700000000' }, about ? Buffer.from(about, 'utf8') : undefined);
    }
    case 'disappearing_mode':
      return owner ? makeNode('disappearing_mode', { duration: '0', t: '0' }) : undefined;
    default:
      return undefined;
  }
}

function deviceNodes(owner: NonNullable<Owner>): BinaryNode[] {
  const primary = makeNode('device', { id: '0' });
  if (!('account' in owner)) return [primary];
  // Companions need a key-index, or clients drop them from the fan-out.
  const companions = linkedCompanions(owner.account).map((device) =>
    makeNode('device', { id: String(device.deviceId), 'key-index': String(device.keyIndex) }),
  );
  return [primary, ...companions];
}
