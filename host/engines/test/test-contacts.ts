/**
 * The test network's directory (who is on WhatsApp, by which LID, with which picture, and whom each session blocked)
 * and the test engine's contacts port over it: tests set the directory up, the port answers from it as a real engine
 * answers from the network.
 */
import { picturesOf } from '#shared/domain/contact-pictures.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import { NotFoundError } from '#shared/errors/app-error.js';

interface DirectoryEntry {
  phone: string;
  lid: string | null;
  picture: string | null;
}

export class TestDirectory {
  private readonly users = new Map<string, DirectoryEntry>();
  private readonly blockedBy = new Map<string, Set<string>>();

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
  return {
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
