/**
 * The test network's directory (who is on WhatsApp, by which LID, with which picture, whom each session knows and
 * whom it blocked)
 * and the test engine's contacts port over it: tests set the directory up, the port answers from it as a real engine
 * answers from the network.
 */
import { picturesOf } from '#shared/domain/contact-pictures.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import { ContactBook, contactAnswer } from '../contact-book.js';

interface DirectoryEntry {
  phone: string;
  lid: string | null;
  picture: string | null;
}

export class TestDirectory {
  private readonly users = new Map<string, DirectoryEntry>();
  private readonly blockedBy = new Map<string, Set<string>>();
  private readonly books = new Map<string, ContactBook>();

  /** Puts `phone` (digits) on WhatsApp, with the LID the network tells for it (digits, or none) and a picture. */
  register(phone: string, lid: string | null = null, picture: string | null = null): void {
    this.users.set(phone, { phone, lid: lid === null ? null : `${lid}@lid`, picture });
  }

  lookup(phone: string): DirectoryEntry | undefined {
    return this.users.get(phone);
  }

  /** The user a contact id names (`<number>@c.us` or `<id>@lid`). */
  find(contactId: string): DirectoryEntry | undefined {
    if (contactId.endsWith('@c.us')) return this.users.get(contactId.slice(0, -'@c.us'.length));
    return [...this.users.values()].find((user) => user.lid === contactId);
  }

  /** What `sessionId` knows of people (tests fill it as the network would: `save`, or `book(id).learn`). */
  book(sessionId: string): ContactBook {
    let book = this.books.get(sessionId);
    if (!book) {
      book = new ContactBook();
      this.books.set(sessionId, book);
    }
    return book;
  }

  /** Puts a registered user in `sessionId`'s address book under `name`. */
  save(sessionId: string, phone: string, name: string): void {
    const lid = this.users.get(phone)?.lid ?? undefined;
    this.book(sessionId).learn({ phone, lid, name, saved: true });
  }

  /** The phone numbers `sessionId` has blocked. */
  blocked(sessionId: string): Set<string> {
    let blocked = this.blockedBy.get(sessionId);
    if (!blocked) {
      blocked = new Set();
      this.blockedBy.set(sessionId, blocked);
    }
    return blocked;
  }
}

/** The contacts port of a test engine for `sessionId`, answering from `directory` while `open()` holds. */
export function testContacts(
  directory: TestDirectory,
  sessionId: string,
  open: () => boolean,
): PortOperations<'contacts'> {
  const connected = () => {
    if (!open()) throw new Error('connection closed');
  };
  const user = (contactId: string): DirectoryEntry => {
    connected();
    const found = directory.find(contactId);
    if (!found) throw new NotFoundError(`Contact ${contactId} not found`);
    return found;
  };
  const blockedIds = () => new Set([...directory.blocked(sessionId)].map((phone) => `${phone}@c.us`));
  return {
    list: async ({ limit, offset }) => {
      connected();
      const blocked = blockedIds();
      return directory
        .book(sessionId)
        .list()
        .slice(offset, offset + limit)
        .map((person) => contactAnswer(person, blocked));
    },
    get: async ({ contactId }) => {
      connected();
      const known = directory.book(sessionId).find(contactId);
      const user = directory.find(contactId) ?? (known?.phone ? directory.lookup(known.phone) : undefined);
      const person =
        known ?? (user && { phone: user.phone, lid: user.lid, name: null, pushName: null, saved: false });
      if (!person) throw new NotFoundError(`Contact ${contactId} not found`);
      return contactAnswer(person, blockedIds(), user?.picture ?? null);
    },
    checkNumber: async ({ number }) => {
      connected();
      const found = directory.lookup(number);
      return found
        ? { number, exists: true, whatsappId: `${number}@c.us`, lid: found.lid }
        : { number, exists: false, whatsappId: null, lid: null };
    },
    profilePicture: async ({ contactId }) => ({ url: user(contactId).picture }),
    phoneOf: async ({ contactId }) => {
      connected();
      return { contactId, phone: directory.find(contactId)?.phone ?? null };
    },
    lidOf: async ({ contactId }) => {
      connected();
      return {
        contactId,
        lid: contactId.endsWith('@lid') ? contactId : (directory.find(contactId)?.lid ?? null),
      };
    },
    profilePictures: async ({ ids }) => picturesOf(ids, async (contactId) => user(contactId).picture),
    blocked: async () => {
      connected();
      return [...directory.blocked(sessionId)].map((phone) => `${phone}@c.us`);
    },
    block: async ({ contactId }) => {
      directory.blocked(sessionId).add(user(contactId).phone);
      return { success: true, message: 'Contact blocked' };
    },
    unblock: async ({ contactId }) => {
      directory.blocked(sessionId).delete(user(contactId).phone);
      return { success: true, message: 'Contact unblocked' };
    },
  };
}
