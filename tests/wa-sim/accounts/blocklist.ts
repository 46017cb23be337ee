/**
 * The account's blocklist: one list for all its devices, kept by the server and keyed by LID, as WhatsApp does since
 * it moved users to LIDs. `iq xmlns=blocklist type=get` answers it (`<list dhash><item jid=LID t/></list>`); `type=set`
 * takes `<item action=block jid=LID pn_jid=PN/>` or `<item action=unblock jid=LID/>` (Baileys 7's
 * `updateBlockStatus`; the old phone-number form is refused with 400 bad-request, as WhatsApp now does) and answers
 * the new list. Every change reaches the account's other companions as `<notification type=account_sync><blocklist
 * dhash prev_dhash><item jid action/></blocklist>` (Baileys: `blocklist.update`), queued for offline ones. The phone
 * blocks through the admin API the same way. Messages and calls from a blocked user are not delivered to the
 * account (`isBlocked`): the sender's server ack still comes, no delivery receipt does.
 */
import { randomBytes } from 'node:crypto';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  children,
  iqError,
  iqResult,
  lidJid,
  makeNode,
  parseJid,
  pnJid,
  SERVER_JID,
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import type { Account, BlockedUser, ClientConnection, CompanionDevice } from './accounts.js';
import { linkedCompanions } from './accounts.js';

/** A user as the blocklist names it: phone number and LID user. */
export interface BlockTarget {
  readonly phone: string;
  readonly lid: string;
}

/** One change to a blocklist. */
export interface BlockChange {
  readonly target: BlockTarget;
  readonly action: 'block' | 'unblock';
}

/** What a change did: how many entries changed, and how many companions were told (now or at their next login). */
export interface BlockResult {
  readonly changed: number;
  readonly notified: number;
}

/** True when `account` blocked the user whose LID user is `lid`. */
export function isBlocked(account: Account, lid: string): boolean {
  return account.blocklist.byLid.has(lid);
}

/** The phone number and LID of the user (account or contact) behind `jid`, if the simulator knows one. */
export function blockTarget(sim: Simulator, jid: string | undefined): BlockTarget | undefined {
  const owner = sim.directory.owner(jid);
  if (!owner) return undefined;
  return 'account' in owner
    ? { phone: owner.account.phone, lid: owner.account.lid }
    : { phone: owner.contact.number, lid: owner.contact.lid };
}

/** Answers a client's blocklist iq: the list (get), or the changes applied and the new list (set). */
export function handleBlocklistIq(sim: Simulator, connection: ClientConnection, iq: BinaryNode): BinaryNode {
  const device = connection.device;
  if (!device) return iqError(iq, 401, 'not-authorized');
  const account = device.account;
  if (iq.attrs.type !== 'set') return iqResult(iq, [listNode(account)]);
  const changes: BlockChange[] = [];
  for (const item of children(iq, 'item')) {
    const parsed = parseItem(sim, account, item);
    if ('error' in parsed)
      return iqError(iq, parsed.error, parsed.error === 404 ? 'item-not-found' : 'bad-request');
    changes.push(parsed);
  }
  if (changes.length === 0) return iqError(iq, 400, 'bad-request');
  applyBlockChanges(sim, account, changes, device);
  return iqResult(iq, [listNode(account)]);
}

/** Reads one `<item>`; what WhatsApp would refuse answers its error code. */
function parseItem(
  sim: Simulator,
  account: Account,
  item: BinaryNode,
): BlockChange | { readonly error: 400 | 404 } {
  const { action, jid } = item.attrs;
  if ((action !== 'block' && action !== 'unblock') || !parseJid(jid)?.isLid) return { error: 400 };
  const target = blockTarget(sim, jid);
  if (!target) return { error: 404 };
  if (target.phone === account.phone) return { error: 400 };
  // A block names the phone number beside the LID; an unblock names the LID alone.
  if (action === 'block' && parseJid(item.attrs.pn_jid)?.user !== target.phone) return { error: 400 };
  return { target, action };
}

/**
 * Applies `changes` to the account's list and tells its companions (all but `skip`, the one that asked) what changed.
 * Blocking a blocked user or unblocking one that is not changes nothing and tells no one.
 */
export function applyBlockChanges(
  sim: Simulator,
  account: Account,
  changes: readonly BlockChange[],
  skip?: CompanionDevice,
): BlockResult {
  const list = account.blocklist;
  const applied = changes.filter(({ target, action }) => {
    if (action === 'block') {
      if (list.byLid.has(target.lid)) return false;
      list.byLid.set(target.lid, { phone: target.phone, lid: target.lid, blockedAt: unixNow() });
      return true;
    }
    return list.byLid.delete(target.lid);
  });
  if (applied.length === 0) return { changed: 0, notified: 0 };
  const previous = list.dhash;
  // A fresh hash per version, as the server names each one; always moving forward.
  list.dhash = String(Math.max(Date.now(), Number(previous) + 1));
  const notification = blocklistNotification(previous, list.dhash, applied);
  const told = linkedCompanions(account).filter((device) => device !== skip);
  for (const device of told) sim.deliver(device, notification);
  sim.log.info(
    `${account.phone} blocklist: ${applied.map((c) => `${c.action} ${c.target.phone}`).join(', ')}; ${told.length} told`,
  );
  return { changed: applied.length, notified: told.length };
}

/** The blocklist as the phone shows it, oldest block first. */
export function blocklistView(account: Account): { dhash: string; blocked: Record<string, unknown>[] } {
  const blocked = [...account.blocklist.byLid.values()].map((user: BlockedUser) => ({
    number: user.phone,
    jid: pnJid(user.phone),
    lid: lidJid(user.lid),
    blockedAt: new Date(user.blockedAt * 1000).toISOString(),
  }));
  return { dhash: account.blocklist.dhash, blocked };
}

function listNode(account: Account): BinaryNode {
  const items = [...account.blocklist.byLid.values()].map((user) =>
    makeNode('item', { jid: lidJid(user.lid), t: String(user.blockedAt) }),
  );
  return makeNode('list', { dhash: account.blocklist.dhash }, items);
}

function blocklistNotification(previous: string, dhash: string, changes: readonly BlockChange[]): BinaryNode {
  const items = changes.map(({ target, action }) => makeNode('item', { jid: lidJid(target.lid), action }));
  return makeNode(
    'notification',
    { from: SERVER_JID, type: 'account_sync', id: randomBytes(8).toString('hex'), t: String(unixNow()) },
    [makeNode('blocklist', { dhash, prev_dhash: previous }, items)],
  );
}
