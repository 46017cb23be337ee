/**
 * The test network's directory (who is on WhatsApp, and by which LID) and the test engine's contacts port over it:
 * tests register users, the port answers from them as a real engine answers from the network.
 */
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';

interface DirectoryEntry {
  lid: string | null;
}

export class TestDirectory {
  private readonly users = new Map<string, DirectoryEntry>();

  /** Puts `phone` (digits) on WhatsApp, with the LID the network tells for it (digits, or none). */
  register(phone: string, lid: string | null = null): void {
    this.users.set(phone, { lid: lid === null ? null : `${lid}@lid` });
  }

  lookup(phone: string): DirectoryEntry | undefined {
    return this.users.get(phone);
  }
}

/** The contacts port of a test engine, answering from `directory` while `open()` holds. */
export function testContacts(directory: TestDirectory, open: () => boolean): PortOperations<'contacts'> {
  const connected = () => {
    if (!open()) throw new Error('connection closed');
  };
  return {
    checkNumber: async ({ number }) => {
      connected();
      const user = directory.lookup(number);
      return user
        ? { number, exists: true, whatsappId: `${number}@c.us`, lid: user.lid }
        : { number, exists: false, whatsappId: null, lid: null };
    },
  };
}
