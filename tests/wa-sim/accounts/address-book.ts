/**
 * The phone's address book, as WhatsApp syncs it to linked devices: each saved contact is a `contactAction`
 * (`fullName`, `firstName`, `lidJid`) under the index `["contact", "<number>@s.whatsapp.net"]` in the app-state
 * collection `critical_unblock_low`, one patch per contact the phone saves or renames. Baileys turns each into
 * `contacts.upsert` `{id, name, lid, phoneNumber}` and `lid-mapping.update`, so a companion learns the names and the
 * LID ↔ number pairs of contacts it never exchanged a message with. Saved contacts are the ones created through
 * `POST /admin/contacts` (in every account's address book); contacts that only came into being by writing are not.
 */
import { proto } from '@whiskeysockets/baileys';
import type { MutationContent } from '#tests/wa-sim/crypto/app-state-crypto.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { lidJid, pnJid } from '#tests/wa-sim/transport/binary.js';
import type { Account } from './accounts.js';
import { announceCollection, phoneWrite } from './app-state.js';
import type { Contact } from './contacts.js';

/** The collection WhatsApp keeps contacts in. */
export const ADDRESS_BOOK = 'critical_unblock_low';
/** The API version of a contact action. */
const CONTACT_ACTION_VERSION = 2;

/** The phone writes every saved contact its app state lacks or names differently; answers how many it wrote. */
export function syncAddressBook(sim: Simulator, account: Account): number {
  let written = 0;
  for (const contact of sim.contacts.all()) {
    if (!contact.saved || account.addressBook.get(contact.number) === contact.name) continue;
    phoneWrite(account, ADDRESS_BOOK, [contactMutation(contact)]);
    account.addressBook.set(contact.number, contact.name);
    written++;
  }
  return written;
}

/** A contact was saved or renamed: every account's phone writes it and tells its companions. */
export function contactSaved(sim: Simulator): void {
  for (const account of sim.accounts.all()) {
    if (syncAddressBook(sim, account) > 0) announceCollection(sim, account, ADDRESS_BOOK);
  }
}

function contactMutation(contact: Contact): MutationContent {
  return {
    operation: proto.SyncdMutation.SyncdOperation.SET,
    index: ['contact', pnJid(contact.number)],
    value: {
      timestamp: Date.now(),
      contactAction: {
        fullName: contact.name,
        firstName: contact.name.split(' ')[0] ?? contact.name,
        lidJid: lidJid(contact.lid),
        saveOnPrimaryAddressbook: true,
      },
    },
    apiVersion: CONTACT_ACTION_VERSION,
  };
}
