/** Admin routes acting as simulated contacts: send, statuses, call, inboxes and media, receipts, presence, settings. */
import type { Account } from '#tests/wa-sim/accounts/accounts.js';
import { contactSaved } from '#tests/wa-sim/accounts/address-book.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import { sha256 } from '#tests/wa-sim/media/media-crypto.js';
import { openMedia } from '#tests/wa-sim/media/received-media.js';
import { contactCall, endContactCall } from '#tests/wa-sim/messaging/calls.js';
import { contactSend, contactSendToGroup } from '#tests/wa-sim/messaging/contact-send.js';
import { contactPostsStatus, contactRevokesStatus } from '#tests/wa-sim/messaging/contact-status.js';
import { sendContactChatstate, setContactOnline } from '#tests/wa-sim/messaging/presence.js';
import { sendContactReceipts } from '#tests/wa-sim/messaging/receipts.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { notFound, SimError } from '#tests/wa-sim/support/errors.js';
import { pnJid } from '#tests/wa-sim/transport/binary.js';
import {
  CallEndBody,
  ContactCallBody,
  ContactChatstateBody,
  ContactConfigBody,
  ContactMessageBody,
  ContactReceiptsBody,
  ContactStatusBody,
  CreateContactBody,
  parseBody,
  type Route,
  StatusRevokeBody,
} from './admin-schemas.js';

function contactOf(sim: Simulator, number: string | undefined): Contact {
  const contact = number ? sim.contacts.get(number) : undefined;
  if (!contact) throw notFound(`no contact ${number ?? ''}`);
  return contact;
}

function linkedAccount(sim: Simulator, phone: string): Account {
  const account = sim.accounts.get(phone);
  if (!account) throw notFound(`no linked account ${phone}`);
  return account;
}

function contactView(sim: Simulator, contact: Contact): Record<string, unknown> {
  return {
    number: contact.number,
    jid: pnJid(contact.number),
    lid: `${contact.lid}@lid`,
    name: contact.name,
    saved: contact.saved,
    config: contact.config,
    receivedCount: contact.receivedCount,
    lastChatstate: sim.presence.chatStates.get(contact.number),
  };
}

/** Routes under `/admin/contacts`. */
export const contactRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/admin\/contacts$/,
    handle: (sim) => ({ body: sim.contacts.all().map((c) => contactView(sim, c)) }),
  },
  {
    method: 'POST',
    pattern: /^\/admin\/contacts$/,
    handle: (sim, _params, body) => {
      const { number, name, saved } = parseBody(CreateContactBody, body);
      const contact = sim.contacts.getOrCreate(number, name);
      // The phones save it (or keep it saved, renamed): their companions hear of it.
      if (saved !== false) contact.saved = true;
      if (contact.saved) contactSaved(sim);
      return { status: 201, body: contactView(sim, contact) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/admin\/contacts\/(\d+)$/,
    handle: (sim, [number]) => ({ body: contactView(sim, contactOf(sim, number)) }),
  },
  {
    method: 'POST',
    pattern: /^\/admin\/contacts\/(\d+)\/messages$/,
    handle: async (sim, [number], body) => {
      const { to, content } = parseBody(ContactMessageBody, body);
      if (to.endsWith('@g.us')) {
        const group = sim.groups.get(to);
        if (!group) throw notFound(`no group ${to}`);
        return { body: await contactSendToGroup(sim, contactOf(sim, number), group, content) };
      }
      const account = linkedAccount(sim, to);
      // Contacts come into being on first use, with fresh Signal keys.
      const contact = sim.contacts.getOrCreate(number ?? '');
      return { body: await contactSend(sim, contact, account, content) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/admin\/contacts\/(\d+)\/messages$/,
    handle: (sim, [number]) => ({ body: contactOf(sim, number).received }),
  },
  {
    method: 'GET',
    pattern: /^\/admin\/contacts\/(\d+)\/messages\/([^/]+)\/media$/,
    handle: async (sim, [number, id]) => {
      const contact = contactOf(sim, number);
      const message = contact.findReceived(id ?? '');
      if (!message) throw notFound(`${contact.number} received no message ${id}`);
      const ref = contact.mediaOf(message.id);
      if (!ref) throw notFound(`${message.id} is a ${message.content.kind}, not a media message`);
      // Opened again as the contact first did: the blob may have been evicted since (410).
      const opened = await openMedia(sim, ref);
      if (!opened.ok) throw new SimError(opened.error === 'notFound' ? 410 : 422, opened.reason);
      return {
        body: opened.bytes,
        contentType: ref.mimetype || 'application/octet-stream',
        headers: { 'x-media-sha256': sha256(opened.bytes).toString('hex') },
      };
    },
  },
  {
    method: 'GET',
    pattern: /^\/admin\/contacts\/(\d+)\/sent$/,
    handle: (sim, [number]) => ({ body: [...contactOf(sim, number).sent.values()] }),
  },
  {
    method: 'POST',
    pattern: /^\/admin\/contacts\/(\d+)\/status$/,
    handle: async (sim, [number], body) => {
      const contact = contactOf(sim, number);
      const { to, ...post } = parseBody(ContactStatusBody, body);
      const accounts = to.map((phone) => linkedAccount(sim, phone));
      return { status: 201, body: await contactPostsStatus(sim, contact, accounts, post) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/contacts\/(\d+)\/status\/([^/]+)\/revoke$/,
    handle: async (sim, [number, id], body) => {
      const contact = contactOf(sim, number);
      const { to } = parseBody(StatusRevokeBody, body);
      const accounts = to.map((phone) => linkedAccount(sim, phone));
      return { body: await contactRevokesStatus(sim, contact, accounts, id ?? '') };
    },
  },
  {
    method: 'GET',
    pattern: /^\/admin\/contacts\/(\d+)\/statuses$/,
    handle: (sim, [number]) => ({ body: contactOf(sim, number).statuses.list() }),
  },
  {
    method: 'POST',
    pattern: /^\/admin\/contacts\/(\d+)\/call$/,
    handle: (sim, [number], body) => {
      const { to, video } = parseBody(ContactCallBody, body);
      const account = linkedAccount(sim, to);
      const call = contactCall(sim, sim.contacts.getOrCreate(number ?? ''), account, video === true);
      return { body: { callId: call.callId, devices: call.devices } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/admin\/contacts\/(\d+)\/calls$/,
    handle: (sim, [number]) => ({ body: sim.calls.from(contactOf(sim, number).number) }),
  },
  {
    method: 'POST',
    pattern: /^\/admin\/contacts\/(\d+)\/calls\/([^/]+)\/end$/,
    handle: (sim, [number, callId], body) => {
      const contact = contactOf(sim, number);
      const { how } = parseBody(CallEndBody, body);
      const call = sim.calls.get(callId);
      if (call?.from !== contact.number) throw notFound(`${contact.number} placed no call ${callId ?? ''}`);
      const notified = endContactCall(sim, call, how);
      return { body: { call, notified } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/contacts\/(\d+)\/receipts$/,
    handle: (sim, [number], body) => {
      const { to, ids, type } = parseBody(ContactReceiptsBody, body);
      sendContactReceipts(sim, contactOf(sim, number), linkedAccount(sim, to), ids, type);
      return { body: { sent: ids.length, type } };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/contacts\/(\d+)\/config$/,
    handle: (sim, [number], body) => {
      const update = parseBody(ContactConfigBody, body);
      const contact = sim.contacts.getOrCreate(number ?? '', update.name);
      const { online, name: _name, ...rest } = update;
      Object.assign(contact.config, rest);
      if (online !== undefined && online !== contact.config.online) setContactOnline(sim, contact, online);
      if (update.name && contact.saved) contactSaved(sim);
      return { body: contactView(sim, contact) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/contacts\/(\d+)\/chatstate$/,
    handle: (sim, [number], body) => {
      const { to, state } = parseBody(ContactChatstateBody, body);
      sendContactChatstate(sim, contactOf(sim, number), linkedAccount(sim, to), state);
      return { body: { sent: state } };
    },
  },
];
