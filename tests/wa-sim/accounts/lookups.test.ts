/**
 * What the gateway's contacts routes ask the network, with the real client: whether numbers are on WhatsApp and
 * their LIDs (usync), profile pictures (present, absent, hidden, unknown, several at once), about texts, and the
 * LID ↔ phone-number mapping Baileys learns from the server.
 */
import { jest } from '@jest/globals';
import { USyncQuery, USyncUser } from '@whiskeysockets/baileys';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';

jest.setTimeout(30_000);

let sim: TestSim;
let client: LinkedClient;
const PHONE = '15550021001';
/** Has a picture and the default about text. */
const ALICE = '15550021101';
/** Has no picture and no about text. */
const BOB = '15550021102';
/** Hides its picture. */
const CAROL = '15550021103';
/** Not in the address book, and never looked up before the mapping test. */
const DAVE = '15550021104';
const UNKNOWN = '15557770000';
const lids: Record<string, string> = {};
const jid = (number: string): string => `${number}@s.whatsapp.net`;

beforeAll(async () => {
  sim = await startTestSim();
  for (const number of [ALICE, BOB, CAROL, DAVE]) {
    // Dave is no saved contact: the phone's address book would teach the client his LID at once.
    const contact = await sim.admin.ok<{ lid: string }>('/contacts', { number, saved: number !== DAVE });
    lids[number] = contact.lid;
  }
  await sim.admin.ok(`/contacts/${BOB}/config`, { picture: 'none', about: '' });
  await sim.admin.ok(`/contacts/${CAROL}/config`, { picture: 'hidden' });
  client = await linkByQr(sim, { phone: PHONE });
});

afterAll(async () => {
  await closeClient(client.sock);
  await sim.stop();
});

describe('is a number on WhatsApp (usync)', () => {
  it('onWhatsApp finds contacts and linked accounts and leaves unknown numbers and LIDs out', async () => {
    const found = await client.sock.onWhatsApp(jid(ALICE), `+${PHONE}`, jid(UNKNOWN), lids[BOB] ?? '');
    expect(found).toEqual([
      { jid: jid(ALICE), exists: true },
      { jid: jid(PHONE), exists: true },
    ]);
  });

  it('answers the LID beside the contact protocol in one query (onWhatsApp itself returns none)', async () => {
    const query = new USyncQuery().withContactProtocol().withLIDProtocol();
    for (const number of [ALICE, UNKNOWN]) query.withUser(new USyncUser().withPhone(`+${number}`));
    const result = await client.sock.executeUSyncQuery(query);
    expect(result?.list).toEqual([
      { id: jid(ALICE), contact: true, lid: lids[ALICE] },
      { id: jid(UNKNOWN), contact: false },
    ]);
  });
});

describe('profile pictures', () => {
  it('answers a URL for a contact with a picture, and the URL serves it', async () => {
    const url = await client.sock.profilePictureUrl(jid(ALICE), 'image');
    expect(url).toMatch(new RegExp(`/media/profile/${ALICE}\\.png\\?type=image$`));
    const response = await fetch(url ?? '');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
  });

  it('throws 404 for a contact without a picture and an unknown user, 401 for a hidden one', async () => {
    await expect(client.sock.profilePictureUrl(jid(BOB), 'image')).rejects.toMatchObject({ data: 404 });
    await expect(client.sock.profilePictureUrl(jid(UNKNOWN), 'image')).rejects.toMatchObject({ data: 404 });
    await expect(client.sock.profilePictureUrl(jid(CAROL), 'image')).rejects.toMatchObject({ data: 401 });
    const file = await fetch(`${sim.running.adminUrl.replace('/admin', '')}/media/profile/${BOB}.png`);
    expect(file.status).toBe(404);
  });

  it('answers a batch of concurrent queries each for its own user, by number or by LID', async () => {
    const targets = [jid(ALICE), jid(BOB), lids[ALICE] ?? '', jid(PHONE), jid(CAROL), jid(UNKNOWN)];
    const settled = await Promise.allSettled(
      targets.map((target) => client.sock.profilePictureUrl(target, 'preview')),
    );
    const outcomes = settled.map((outcome) =>
      outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as { data?: number }).data,
    );
    expect(outcomes).toEqual([
      expect.stringContaining(`/media/profile/${ALICE}.png?type=preview`),
      404,
      expect.stringContaining(`/media/profile/${ALICE}.png?type=preview`),
      expect.stringContaining(`/media/profile/${PHONE}.png?type=preview`),
      401,
      404,
    ]);
  });
});

describe('about texts (usync status)', () => {
  it('fetchStatus answers each contact’s about text, null when it has none or is unknown', async () => {
    await sim.admin.ok(`/contacts/${CAROL}/config`, { about: 'Busy' });
    const statuses = await client.sock.fetchStatus(jid(ALICE), jid(BOB), jid(CAROL), jid(UNKNOWN));
    const byId = Object.fromEntries(
      (statuses ?? []).map((entry) => [entry.id, (entry.status as { status: string | null }).status]),
    );
    expect(byId).toEqual({
      [jid(ALICE)]: 'Hey there! I am using WhatsApp.',
      [jid(BOB)]: null,
      [jid(CAROL)]: 'Busy',
      [jid(UNKNOWN)]: null,
    });
  });
});

describe('LID ↔ phone number', () => {
  it('learns a LID from the server (usync lid) for a contact it never met, and the number back from it', async () => {
    const mapping = client.sock.signalRepository.lidMapping;
    expect(await mapping.getPNForLID(lids[DAVE] ?? '')).toBeNull();
    expect(await mapping.getLIDForPN(jid(DAVE))).toBe(lids[DAVE]);
    // rc14 answers the number with a device part (`:0`); jidNormalizedUser drops it.
    expect(await mapping.getPNForLID(lids[DAVE] ?? '')).toBe(`${DAVE}:0@s.whatsapp.net`);
    expect(await mapping.getLIDForPN(jid(UNKNOWN))).toBeNull();
  });
});
