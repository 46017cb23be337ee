/**
 * The Baileys engine's contact book (host/engines/contact-book.ts), fed by what its sockets hear: the address book
 * through app-state sync (`contacts.upsert`: saved names, LIDs, numbers), the names people give themselves
 * (`contacts.update` with `notify`, which Baileys emits for each message's push name), and LID ↔ number pairings
 * (`lid-mapping.update`). WhatsApp sends the address book once, when the device links, and then only its changes, so
 * the book is kept in the engine's own state: the auth-state store, beside the Signal keys, wiped with them at
 * logout, as WhatsApp Web keeps contacts in the browser's storage. The gateway's data holds none of it.
 */
import { createHash } from 'node:crypto';
import type { Contact, WASocket } from '@whiskeysockets/baileys';
import { z } from 'zod';
import type { AuthKeyChange, AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { ContactBook, type ContactFacts, KnownContact } from '../contact-book.js';
import { toNeutralJid } from './baileys-jids.js';

/** The key category the book is kept under; its people are spread over SHARDS keys (a DynamoDB item holds 400 KB). */
const CATEGORY = 'waygate-contacts';
const SHARDS = 16;
const SHARD_IDS = Array.from({ length: SHARDS }, (_, shard) => String(shard));
const Shard = z.array(KnownContact);

const shardOf = (person: KnownContact): number =>
  (createHash('sha1')
    .update(person.phone ?? person.lid ?? '')
    .digest()
    .readUInt8(0) % SHARDS) as number;

/** A Baileys address in the book's terms: phone digits or `<id>@lid` (devices and `@s.whatsapp.net` dropped). */
function identity(jid: string | null | undefined): { phone?: string; lid?: string } {
  if (!jid) return {};
  const neutral = toNeutralJid(jid);
  if (neutral.endsWith('@lid')) return { lid: neutral };
  if (neutral.endsWith('@c.us')) return { phone: neutral.slice(0, -'@c.us'.length) };
  return {};
}

/** A saved name comes only from the address book (app-state sync); a push name from the person's messages. */
function factsOf(contact: Partial<Contact>): ContactFacts {
  return {
    ...identity(contact.phoneNumber),
    ...identity(contact.lid),
    ...identity(contact.id),
    name: contact.name ?? undefined,
    pushName: contact.notify ?? undefined,
    saved: contact.name ? true : undefined,
  };
}

export interface ContactBookOptions {
  authState: AuthStateStore;
  sessionId: string;
  /** False once the session's state is being wiped: nothing may be written back then. */
  persisting: () => boolean;
  logger: Pick<Logger, 'warn'>;
}

export class BaileysContactBook {
  private readonly book = new ContactBook();
  /** The book as stored, once read; every change waits for it. */
  private readonly loaded: Promise<void>;
  /** Writes in the order the changes came. */
  private writing: Promise<void> = Promise.resolve();
  /** Each shard's text as last read or written. */
  private readonly written = new Map<string, string>();
  /** A save waits for the end of the turn: an app-state sync reports the address book one contact at a time. */
  private saveScheduled = false;

  constructor(private readonly options: ContactBookOptions) {
    this.loaded = this.load();
  }

  /** The book, once what was stored is in. */
  async read(): Promise<ContactBook> {
    await this.loaded;
    return this.book;
  }

  /** Learns from `socket`'s contact events for as long as it lives. */
  listen(socket: WASocket): void {
    socket.ev.on('contacts.upsert', (contacts) => this.take((book) => learnAll(book, contacts)));
    socket.ev.on('contacts.update', (contacts) => this.take((book) => learnAll(book, contacts)));
    socket.ev.on('lid-mapping.update', ({ lid, pn }) => {
      const { phone } = identity(pn);
      const { lid: alias } = identity(lid);
      if (phone && alias) this.take((book) => book.link(phone, alias));
    });
  }

  /** Applies a change once the stored book is in; the shards it changed are saved once the turn's changes are in. */
  private take(change: (book: ContactBook) => boolean): void {
    void this.loaded.then(() => {
      if (!change(this.book) || this.saveScheduled) return;
      this.saveScheduled = true;
      setImmediate(() => {
        this.saveScheduled = false;
        this.save();
      });
    });
  }

  private async load(): Promise<void> {
    const stored = await this.options.authState
      .readKeys(this.options.sessionId, CATEGORY, SHARD_IDS)
      .catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'the contact book could not be read; it starts empty');
        return new Map<string, string>();
      });
    for (const [id, text] of stored) {
      const shard = Shard.safeParse(parseJson(text));
      if (!shard.success) continue;
      this.book.restore(shard.data);
      this.written.set(id, text);
    }
  }

  /** Writes the shards whose text differs from what was last written (a deleted shard is an empty one). */
  private save(): void {
    const held = SHARD_IDS.map(() => [] as KnownContact[]);
    for (const person of this.book.list()) held[shardOf(person)]?.push(person);
    const changes: AuthKeyChange[] = [];
    held.forEach((people, shard) => {
      const id = String(shard);
      const text = people.length > 0 ? JSON.stringify(people) : null;
      if ((this.written.get(id) ?? null) === text) return;
      changes.push({ category: CATEGORY, id, value: text });
      if (text === null) this.written.delete(id);
      else this.written.set(id, text);
    });
    if (changes.length === 0) return;
    this.writing = this.writing.then(async () => {
      if (!this.options.persisting()) return;
      await this.options.authState.writeKeys(this.options.sessionId, changes).catch((error: unknown) => {
        // What was stored is unknown now: the next change rewrites every shard.
        this.written.clear();
        this.options.logger.warn({ err: error }, 'the contact book could not be saved');
      });
    });
  }
}

function learnAll(book: ContactBook, contacts: Partial<Contact>[]): boolean {
  let changed = false;
  for (const contact of contacts) changed = book.learn(factsOf(contact)) || changed;
  return changed;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
