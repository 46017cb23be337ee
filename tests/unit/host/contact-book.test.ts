/**
 * The engine-neutral contact book: people by phone number, by LID or both, joined when a pairing is learnt, kept
 * as plain data between runs; and the Baileys engine's book over the auth-state store (its events in, its shards
 * written only when their text changed, read back by the next engine, never written once the state is wiped).
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import type { WASocket } from '@whiskeysockets/baileys';
import { BaileysContactBook } from '#host/engines/baileys/baileys-contact-book.js';
import { ContactBook, contactAnswer } from '#host/engines/contact-book.js';
import { MemoryAuthStateStore } from '#shared/adapters/memory/memory-auth-state-store.js';
import type { AuthKeyChange } from '#shared/ports/auth-state-store.port.js';

describe('ContactBook', () => {
  it('holds a person by number, by LID, and joins the two records once a pairing names both', () => {
    const book = new ContactBook();
    expect(book.learn({ phone: '15550002222', name: 'Alice Smith', saved: true })).toBe(true);
    expect(book.learn({ lid: '880001@lid', pushName: 'Ali' })).toBe(true);
    expect(book.list()).toHaveLength(2);
    expect(book.learn({ phone: '15550002222', lid: '880001@lid' })).toBe(true);
    const alice = {
      phone: '15550002222',
      lid: '880001@lid',
      name: 'Alice Smith',
      pushName: 'Ali',
      saved: true,
    };
    expect(book.list()).toEqual([alice]);
    expect(book.find('15550002222@c.us')).toEqual(alice);
    expect(book.find('880001@lid')).toBe(book.find('15550002222@c.us'));
    expect(book.learn({ phone: '15550002222', lid: '880001@lid', pushName: 'Ali' })).toBe(false);
  });

  it('learns nothing from a report naming nobody, and a pairing alone adds nobody', () => {
    const book = new ContactBook();
    expect(book.learn({ pushName: 'Nobody' })).toBe(false);
    expect(book.link('15550002222', '880001@lid')).toBe(false);
    expect(book.list()).toEqual([]);
    book.learn({ lid: '880001@lid', pushName: 'Ali' });
    expect(book.link('15550002222', '880001@lid')).toBe(true);
    expect(book.find('15550002222@c.us')).toMatchObject({ lid: '880001@lid', pushName: 'Ali' });
  });

  it('keeps a saved contact saved and renames it; an empty name changes nothing', () => {
    const book = new ContactBook();
    book.learn({ phone: '15550002222', name: 'Alice', saved: true });
    expect(book.learn({ phone: '15550002222', name: 'Alice Jones' })).toBe(true);
    expect(book.learn({ phone: '15550002222', name: '' })).toBe(false);
    expect(book.find('15550002222@c.us')).toMatchObject({ name: 'Alice Jones', saved: true });
  });

  it('lists by the id the API names a person by, and restores a listing into an equal book', () => {
    const book = new ContactBook();
    book.learn({ lid: '770007@lid' });
    book.learn({ phone: '15550003333' });
    book.learn({ phone: '15550002222', lid: '880001@lid', saved: true, name: 'A' });
    const listed = book.list();
    expect(listed.map((person) => person.phone ?? person.lid)).toEqual([
      '15550002222',
      '15550003333',
      '770007@lid',
    ]);
    const restored = new ContactBook();
    restored.restore(JSON.parse(JSON.stringify(listed)));
    expect(restored.list()).toEqual(listed);
  });

  it('answers a person as the routes do; blocked by either of its ids', () => {
    const person = { phone: '15550002222', lid: '880001@lid', name: null, pushName: 'Ali', saved: false };
    expect(contactAnswer(person, new Set(['880001@lid']), null)).toEqual({
      id: '15550002222@c.us',
      number: '15550002222',
      lid: '880001@lid',
      pushName: 'Ali',
      isMyContact: false,
      isBlocked: true,
      profilePicUrl: null,
    });
    expect(contactAnswer({ ...person, phone: null }, new Set(['15550002222@c.us']))).toMatchObject({
      id: '880001@lid',
      number: null,
      isBlocked: false,
    });
  });
});

/** Just what the book listens to on a socket. */
function fakeSocket(): { socket: WASocket; emit: (event: string, data: unknown) => void } {
  const ev = new EventEmitter();
  return { socket: { ev } as unknown as WASocket, emit: (event, data) => ev.emit(event, data) };
}

class RecordingStore extends MemoryAuthStateStore {
  readonly batches: AuthKeyChange[][] = [];
  override async writeKeys(sessionId: string, changes: readonly AuthKeyChange[]): Promise<void> {
    this.batches.push([...changes]);
    await super.writeKeys(sessionId, changes);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
const SESSION = 'session-1';

describe('BaileysContactBook', () => {
  const bookOver = (authState: RecordingStore, persisting = () => true) =>
    new BaileysContactBook({ authState, sessionId: SESSION, persisting, logger: { warn: () => {} } });

  it('takes in the address book, push names and pairings, and the next engine reads them back', async () => {
    const store = new RecordingStore();
    const { socket, emit } = fakeSocket();
    bookOver(store).listen(socket);
    emit('contacts.upsert', [
      { id: '15550002222@s.whatsapp.net', name: 'Alice Smith', lid: '880001@lid', phoneNumber: undefined },
    ]);
    emit('contacts.update', [{ id: '770007@lid', notify: 'Dan' }]);
    emit('lid-mapping.update', { lid: '770007:2@lid', pn: '15550004444:2@s.whatsapp.net' });
    emit('lid-mapping.update', { lid: '660006@lid', pn: '15550006666@s.whatsapp.net' });
    await settle();
    const again = await bookOver(store).read();
    expect(again.list()).toEqual([
      { phone: '15550002222', lid: '880001@lid', name: 'Alice Smith', pushName: null, saved: true },
      { phone: '15550004444', lid: '770007@lid', name: null, pushName: 'Dan', saved: false },
    ]);
  });

  it('writes nothing for a report that changes nothing, and only the shards that changed', async () => {
    const store = new RecordingStore();
    const { socket, emit } = fakeSocket();
    bookOver(store).listen(socket);
    const people = Array.from({ length: 40 }, (_, i) => ({
      id: `${15550100000 + i}@s.whatsapp.net`,
      notify: 'x',
    }));
    emit('contacts.update', people);
    await settle();
    expect(store.batches).toHaveLength(1);
    const shards = store.batches[0]?.length ?? 0;
    expect(shards).toBeGreaterThan(8);
    emit('contacts.update', people);
    await settle();
    expect(store.batches).toHaveLength(1);
    emit('contacts.update', [{ id: '15550100000@s.whatsapp.net', notify: 'y' }]);
    await settle();
    expect(store.batches[1]).toHaveLength(1);
  });

  it('writes nothing once the session’s state is wiped', async () => {
    const store = new RecordingStore();
    const { socket, emit } = fakeSocket();
    let persisting = true;
    bookOver(store, () => persisting).listen(socket);
    persisting = false;
    emit('contacts.update', [{ id: '15550002222@s.whatsapp.net', notify: 'Ali' }]);
    await settle();
    expect((await bookOver(store).read()).list()).toEqual([]);
  });

  it('starts from what is readable: a damaged shard is left out, the others are read', async () => {
    const store = new RecordingStore();
    const { socket, emit } = fakeSocket();
    bookOver(store).listen(socket);
    emit('contacts.update', [
      { id: '15550002222@s.whatsapp.net', notify: 'A' },
      { id: '15550004444@s.whatsapp.net', notify: 'B' },
    ]);
    await settle();
    const written = store.batches[0] ?? [];
    expect(written).toHaveLength(2);
    await store.writeKeys(SESSION, [
      { category: 'waygate-contacts', id: written[0]?.id ?? '', value: '{oops' },
    ]);
    expect((await bookOver(store).read()).list()).toHaveLength(1);
  });
});
