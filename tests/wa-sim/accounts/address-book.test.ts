/**
 * The contacts a session knows: the phone's address book reaches linked companions through app-state sync
 * (`critical_unblock_low` contact actions), as `contacts.upsert` with names and LIDs and the LID ↔ number pairs.
 * One companion has the gateway's settings (no history: it fetches on the server's `server_sync`), the other
 * Baileys' defaults with every app-state MAC checked (its initial sync fetches every collection).
 */
import { jest } from '@jest/globals';
import type { Contact, WASocket } from '@whiskeysockets/baileys';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { eventually } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

/** What a socket learnt of contacts through `contacts.upsert` and `contacts.update`, merged by id. */
class ContactBook {
  readonly byId = new Map<string, Partial<Contact>>();

  readonly attach = (sock: WASocket): void => {
    const merge = (contacts: Partial<Contact>[]): void => {
      for (const contact of contacts) {
        if (contact.id) this.byId.set(contact.id, { ...this.byId.get(contact.id), ...contact });
      }
    };
    sock.ev.on('contacts.upsert', merge);
    sock.ev.on('contacts.update', merge);
  };

  /** The contact `id` once its name is `name`. */
  named(id: string, name: string): Promise<Partial<Contact>> {
    return eventually(() => (this.byId.get(id)?.name === name ? this.byId.get(id) : undefined), 10_000, name);
  }
}

interface AccountView {
  appState: Record<string, { version: number; ltHash: string }>;
}

const ADDRESS_BOOK = 'critical_unblock_low';
let sim: TestSim;
let gateway: LinkedClient;
let checking: LinkedClient;
const gatewayBook = new ContactBook();
const checkingBook = new ContactBook();
const PHONE = '15550022001';
const ALICE = '15550022101';
const BOB = '15550022102';
const CAROL = '15550022103';
const STRANGER = '15550022199';
const lids: Record<string, string> = {};
const jid = (number: string): string => `${number}@s.whatsapp.net`;

beforeAll(async () => {
  sim = await startTestSim();
  for (const [number, name, saved] of [
    [ALICE, 'Alice Smith', true],
    [BOB, 'Bob', true],
    [STRANGER, 'Someone', false],
  ] as const) {
    lids[number] = (await sim.admin.ok<{ lid: string }>('/contacts', { number, name, saved })).lid;
  }
  gateway = await linkByQr(sim, { phone: PHONE, onSocket: gatewayBook.attach });
  checking = await linkByQr(sim, {
    phone: PHONE,
    history: 'inline',
    verifyAppStateMacs: true,
    onSocket: checkingBook.attach,
  });
});

afterAll(async () => {
  await closeClient(gateway.sock);
  await closeClient(checking.sock);
  await sim.stop();
});

describe('the address book after a link', () => {
  it('reaches a companion with the gateway’s settings: names, LIDs, numbers; strangers are not in it', async () => {
    expect(await gatewayBook.named(jid(ALICE), 'Alice Smith')).toEqual({
      id: jid(ALICE),
      name: 'Alice Smith',
      lid: lids[ALICE],
      phoneNumber: jid(ALICE),
    });
    await gatewayBook.named(jid(BOB), 'Bob');
    expect(gatewayBook.byId.has(jid(STRANGER))).toBe(false);
  });

  it('teaches the number behind each saved contact’s LID without a lookup', async () => {
    const mapping = gateway.sock.signalRepository.lidMapping;
    expect(await mapping.getPNForLID(lids[BOB] ?? '')).toBe(`${BOB}:0@s.whatsapp.net`);
    expect(await mapping.getPNForLID(lids[STRANGER] ?? '')).toBeNull();
  });

  it('reaches a companion that syncs history and checks every app-state MAC', async () => {
    await checkingBook.named(jid(ALICE), 'Alice Smith');
    await checkingBook.named(jid(BOB), 'Bob');
  });
});

describe('changes to the address book', () => {
  it('a contact saved or renamed on the phone reaches every connected companion', async () => {
    await sim.admin.ok('/contacts', { number: CAROL, name: 'Carol' });
    await gatewayBook.named(jid(CAROL), 'Carol');
    await checkingBook.named(jid(CAROL), 'Carol');
    await sim.admin.ok(`/contacts/${ALICE}/config`, { name: 'Alice Jones' });
    await gatewayBook.named(jid(ALICE), 'Alice Jones');
    await checkingBook.named(jid(ALICE), 'Alice Jones');
  });

  it('a companion’s own edit reaches the other companion, and later phone patches still verify', async () => {
    await gateway.sock.addOrEditContact(jid(BOB), { fullName: 'Bobby', lidJid: lids[BOB] });
    await checkingBook.named(jid(BOB), 'Bobby');
    await sim.admin.ok(`/contacts/${CAROL}/config`, { name: 'Caroline' });
    await checkingBook.named(jid(CAROL), 'Caroline');
    await gatewayBook.named(jid(CAROL), 'Caroline');
    // Baileys still applies a patch whose snapshot MAC disagrees (it only skips the ones after it): compare the
    // state itself. The server's hash must have taken the companion's own mutation in.
    const server = await sim.admin.get<AccountView>(`/accounts/${PHONE}`);
    const collection = server.body.appState[ADDRESS_BOOK];
    for (const client of [gateway, checking]) {
      const { [ADDRESS_BOOK]: state } = await client.auth.state.keys.get('app-state-sync-version', [
        ADDRESS_BOOK,
      ]);
      expect({ version: state?.version, ltHash: Buffer.from(state?.hash ?? []).toString('base64') }).toEqual(
        collection,
      );
    }
  });
});
