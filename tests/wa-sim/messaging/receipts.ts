/**
 * Receipts both ways. From clients: acknowledged, then applied to the contact's sent message or forwarded to the
 * other account's companions. From contacts: `<receipt>` nodes to the companions of the account that sent the
 * messages (delivery when untyped, `read`, `played`).
 */
import type { Account, ClientConnection } from '#tests/wa-sim/accounts/accounts.js';
import type { Contact, SentStatus } from '#tests/wa-sim/accounts/contacts.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { notFound } from '#tests/wa-sim/support/errors.js';
import {
  type BinaryNode,
  child,
  children,
  makeNode,
  pnJid,
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import { noteClientRead } from './chat-log.js';

/** Receipt kinds a contact can send. */
export type ContactReceiptType = 'delivery' | 'read' | 'played';

const STATUS_BY_TYPE: Record<string, SentStatus> = { read: 'read', 'read-self': 'read', played: 'played' };
const OWN_DEVICE_TYPES = new Set(['peer_msg', 'hist_sync', 'sender', 'server-error', 'retry']);

/** Handles a client's `<receipt>`: ack it, then apply or forward it. */
export function handleClientReceipt(sim: Simulator, connection: ClientConnection, node: BinaryNode): void {
  const { id, to, type } = node.attrs;
  const sender = connection.device;
  if (!id || !sender) return;
  const ids = [
    id,
    ...children(child(node, 'list'), 'item').flatMap((item) => (item.attrs.id ? [item.attrs.id] : [])),
  ];
  for (const each of ids) {
    sim.receipts.settle(connection, each);
    sim.acknowledged(sender, each);
  }
  connection.send(makeNode('ack', { class: 'receipt', id, from: to, type }));
  if (to && (type === 'read' || type === 'read-self')) noteClientRead(sim, sender, to);
  if (!to || (type && OWN_DEVICE_TYPES.has(type))) return;
  const chatIsGroup = to.endsWith('@g.us');
  const target = sim.directory.owner(chatIsGroup ? node.attrs.participant : to);
  if (!target) return;
  if ('contact' in target) {
    const status: SentStatus = (type && STATUS_BY_TYPE[type]) || 'delivered';
    for (const each of ids) advance(target.contact, each, status);
    return;
  }
  // Another linked account sent these: tell its devices, from the reader's number.
  const forwarded = makeNode(
    'receipt',
    {
      from: chatIsGroup ? to : pnJid(sender.account.phone),
      participant: chatIsGroup ? pnJid(sender.account.phone) : undefined,
      id,
      t: String(unixNow()),
      type: type === 'inactive' ? undefined : type,
    },
    node.content,
  );
  sim.deliverToAccount(target.account, forwarded);
}

/** A contact reports `type` for messages it received from `account`; unknown ids are refused. */
export function sendContactReceipts(
  sim: Simulator,
  contact: Contact,
  account: Account,
  ids: readonly string[],
  type: ContactReceiptType,
): void {
  const sender = pnJid(account.phone);
  const byChat = new Map<string, string[]>();
  for (const id of ids) {
    const message = contact.findReceived(id);
    if (!message || message.from !== sender)
      throw notFound(`contact ${contact.number} has no message ${id} from ${account.phone}`);
    const chat = message.group ?? '';
    byChat.set(chat, [...(byChat.get(chat) ?? []), id]);
  }
  for (const [group, chatIds] of byChat) {
    const [first, ...rest] = chatIds;
    if (!first) continue;
    const attrs = {
      from: group || pnJid(contact.number),
      participant: group ? pnJid(contact.number) : undefined,
      id: first,
      t: String(unixNow()),
      type: type === 'delivery' ? undefined : type,
    };
    const list = rest.length
      ? [
          makeNode(
            'list',
            {},
            rest.map((each) => makeNode('item', { id: each })),
          ),
        ]
      : undefined;
    sim.deliverToAccount(account, makeNode('receipt', attrs, list));
  }
}

/** Sends the contact's automatic receipts for a message it just received, as configured. */
export function autoReceipts(sim: Simulator, contact: Contact, account: Account, id: string): void {
  const { autoDeliver, autoRead, receiptDelayMs } = contact.config;
  if (!autoDeliver && !autoRead) return;
  const send = (): void => {
    if (autoDeliver) sendContactReceipts(sim, contact, account, [id], 'delivery');
    if (autoRead) sendContactReceipts(sim, contact, account, [id], 'read');
  };
  if (receiptDelayMs > 0) setTimeout(send, receiptDelayMs).unref();
  else send();
}

const RANK: Record<SentStatus, number> = { sent: 0, delivered: 1, read: 2, played: 3 };

function advance(contact: Contact, id: string, status: SentStatus): void {
  const message = contact.sent.get(id);
  if (message && RANK[status] > RANK[message.status]) message.status = status;
}
