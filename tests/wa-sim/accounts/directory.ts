/**
 * Resolution of any user or device jid (phone-number or LID form) to who is behind it: a device of a linked
 * account (its simulated phone or a real companion) or a simulated contact.
 */

import type { DeviceAddress } from '#tests/wa-sim/crypto/signal-device.js';
import { parseJid } from '#tests/wa-sim/transport/binary.js';
import type { Account, AccountRegistry, CompanionDevice } from './accounts.js';
import type { Contact, ContactRegistry } from './contacts.js';

/** Who a jid designates. `device` is undefined for a companion id that is not linked. */
export type Resolved =
  | { readonly kind: 'phone'; readonly account: Account }
  | { readonly kind: 'companion'; readonly account: Account; readonly device: CompanionDevice | undefined }
  | { readonly kind: 'contact'; readonly contact: Contact };

/** Looks up users in both registries. */
export class Directory {
  constructor(
    readonly accounts: AccountRegistry,
    readonly contacts: ContactRegistry,
  ) {}

  /** Resolves a user or device jid; undefined for unknown users and other servers (groups…). */
  resolve(jid: string | undefined): Resolved | undefined {
    const parsed = parseJid(jid);
    if (!parsed || (parsed.server !== 's.whatsapp.net' && parsed.server !== 'lid')) return undefined;
    const account = this.accounts.findByUser(parsed.user);
    if (account) {
      if (parsed.device === 0) return { kind: 'phone', account };
      return { kind: 'companion', account, device: account.companions.get(parsed.device) };
    }
    const contact = this.contacts.findByUser(parsed.user);
    return contact && parsed.device === 0 ? { kind: 'contact', contact } : undefined;
  }

  /** The account or contact owning the user part of `jid`. */
  owner(jid: string | undefined): { account: Account } | { contact: Contact } | undefined {
    const parsed = parseJid(jid);
    if (!parsed) return undefined;
    const account = this.accounts.findByUser(parsed.user);
    if (account) return { account };
    const contact = this.contacts.findByUser(parsed.user);
    return contact ? { contact } : undefined;
  }

  /** The phone number behind a user part given as a number or a LID. */
  phoneOf(user: string): string | undefined {
    return this.accounts.findByUser(user)?.phone ?? this.contacts.findByUser(user)?.number;
  }
}

/** The Signal address the simulated devices use for a companion: its account phone and device id. */
export function companionAddress(device: CompanionDevice): DeviceAddress {
  return { user: device.account.phone, device: device.deviceId };
}

/** The Signal address of a contact. */
export function contactAddress(contact: Contact): DeviceAddress {
  return { user: contact.number, device: 0 };
}

/** A stable key for a companion device, used in sets and maps. */
export function companionKey(device: CompanionDevice): string {
  return `${device.account.phone}:${device.deviceId}`;
}
