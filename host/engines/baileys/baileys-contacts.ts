/**
 * The Baileys engine's contacts port (engine operation rows of shared/domain/engine-operations/contacts.ts): asks
 * the network through the live socket (usync, profile-picture and blocklist IQs), so answers are live and nothing is
 * stored by the gateway. WhatsApp keys blocking by LID since the LID move; Baileys resolves a phone number's LID
 * (its mapping store, else a usync lid query) before it blocks.
 */
import { jidNormalizedUser, type WASocket } from '@whiskeysockets/baileys';
import { picturesOf, pictureWithin } from '#shared/domain/contact-pictures.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import { contactAnswer, idOf, type KnownContact } from '../contact-book.js';
import type { BaileysContactBook } from './baileys-contact-book.js';
import { toBaileysJid, toNeutralJid } from './baileys-jids.js';

type Contacts = PortOperations<'contacts'>;

/** The error code of a refused IQ (Baileys throws a Boom whose `data` is the node's `code`). */
const iqCode = (error: unknown) => (error as { data?: unknown } | null)?.data;
/** A Boom Baileys throws itself before asking the network (an address it cannot resolve: 400). */
const localStatus = (error: unknown) =>
  (error as { output?: { statusCode?: number } } | null)?.output?.statusCode;
const digitsOf = (jid: string) => jid.split('@')[0]?.split(':')[0] ?? '';

export class BaileysContacts implements Contacts {
  constructor(
    private readonly socket: () => WASocket | null,
    private readonly book: BaileysContactBook,
  ) {}

  private open(): WASocket {
    const socket = this.socket();
    if (!socket) throw new Error('no open connection');
    return socket;
  }

  /** usync's contact protocol: Baileys lists only the numbers that are on WhatsApp. */
  async checkNumber({ number }: { number: string }) {
    const socket = this.open();
    const [found] = (await socket.onWhatsApp(number)) ?? [];
    if (!found?.exists) return { number, exists: false, whatsappId: null, lid: null };
    // The LID as Baileys knows it (its mapping store, else a usync lid query); a lookup that fails leaves it out.
    const lid = await socket.signalRepository.lidMapping.getLIDForPN(found.jid).catch(() => null);
    return { number, exists: true, whatsappId: toNeutralJid(found.jid), lid: lid ? toNeutralJid(lid) : null };
  }

  /** The book's people, a page of them, with the blocklist read live. */
  async list({ limit, offset }: { limit: number; offset: number }) {
    const [book, blocked] = await Promise.all([this.book.read(), this.blockedIds()]);
    return book
      .list()
      .slice(offset, offset + limit)
      .map((person) => contactAnswer(person, blocked));
  }

  /**
   * A person of the book, or one the network knows (a number on WhatsApp, a LID whose number Baileys learnt); the
   * picture (null past 8 s, as in a batch) and the blocklist are read live.
   */
  async get({ contactId }: { contactId: string }) {
    const person = (await this.book.read()).find(contactId) ?? (await this.stranger(contactId));
    if (!person) throw new NotFoundError(`Contact ${contactId} not found`);
    const [blocked, picture] = await Promise.all([
      this.blockedIds(),
      pictureWithin(idOf(person), async (id) => (await this.profilePicture({ contactId: id })).url),
    ]);
    return contactAnswer(person, blocked, picture);
  }

  private async stranger(contactId: string): Promise<KnownContact | undefined> {
    const unknown = { name: null, pushName: null, saved: false };
    if (contactId.endsWith('@lid')) {
      const phone = await this.phoneOfLid(contactId);
      return phone ? { ...unknown, phone, lid: contactId } : undefined;
    }
    const found = await this.checkNumber({ number: digitsOf(contactId) });
    return found.exists ? { ...unknown, phone: found.number, lid: found.lid } : undefined;
  }

  /** The blocklist in both id forms: each entry's id, and its number's id when Baileys knows it. */
  private async blockedIds(): Promise<Set<string>> {
    const ids = new Set<string>();
    for (const { id, phone } of await this.blocklist()) {
      ids.add(id);
      if (phone) ids.add(`${phone}@c.us`);
    }
    return ids;
  }

  /** The account's blocklist as the network answers it (LIDs since the LID move), each with the number Baileys knows. */
  private async blocklist(): Promise<{ id: string; phone: string | null }[]> {
    const entries = (await this.open().fetchBlocklist()).filter(
      (jid): jid is string => typeof jid === 'string',
    );
    return Promise.all(
      entries.map(async (jid) => ({
        id: toNeutralJid(jid),
        phone: jid.endsWith('@lid') ? await this.phoneOfLid(jid) : null,
      })),
    );
  }

  /** No picture (404) and a hidden one (401) are answers, not failures: the URL is null. */
  async profilePicture({ contactId }: { contactId: string }) {
    try {
      const url = await this.open().profilePictureUrl(toBaileysJid(contactId), 'image');
      return { url: url ?? null };
    } catch (error) {
      if (iqCode(error) === 404 || iqCode(error) === 401) return { url: null };
      throw error;
    }
  }

  async phoneOf({ contactId }: { contactId: string }) {
    if (contactId.endsWith('@c.us')) return { contactId, phone: digitsOf(contactId) };
    return { contactId, phone: await this.phoneOfLid(contactId) };
  }

  /** Baileys' mapping store, else a usync lid query; a number not on WhatsApp has none. */
  async lidOf({ contactId }: { contactId: string }) {
    if (contactId.endsWith('@lid')) return { contactId, lid: contactId };
    const lid = await this.open().signalRepository.lidMapping.getLIDForPN(toBaileysJid(contactId));
    return { contactId, lid: lid ? toNeutralJid(jidNormalizedUser(lid)) : null };
  }

  async profilePictures({ ids }: { ids: string }) {
    return picturesOf(ids, async (contactId) => (await this.profilePicture({ contactId })).url);
  }

  /** The list holds LIDs: each is named by its phone number when Baileys knows the pairing. */
  async blocked() {
    return (await this.blocklist()).map(({ id, phone }) => (phone ? `${phone}@c.us` : id));
  }

  async block({ contactId }: { contactId: string }) {
    await this.updateBlock(contactId, 'block');
    return { success: true as const, message: 'Contact blocked' };
  }

  async unblock({ contactId }: { contactId: string }) {
    await this.updateBlock(contactId, 'unblock');
    return { success: true as const, message: 'Contact unblocked' };
  }

  private async updateBlock(contactId: string, action: 'block' | 'unblock'): Promise<void> {
    try {
      await this.open().updateBlockStatus(toBaileysJid(contactId), action);
    } catch (error) {
      // Baileys could not resolve the address to a user (a number not on WhatsApp, a LID it never met).
      if (localStatus(error) === 400) throw new NotFoundError(`Contact ${contactId} not found`);
      throw error;
    }
  }

  /** The mapping store only (Baileys never asks the network for a LID's number); `:0` device suffix dropped. */
  private async phoneOfLid(lid: string): Promise<string | null> {
    const pn = await this.open().signalRepository.lidMapping.getPNForLID(toBaileysJid(lid));
    return pn ? digitsOf(jidNormalizedUser(pn)) : null;
  }
}
