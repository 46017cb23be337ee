/**
 * The contacts operations end to end: the real Baileys client inside the gateway asks the simulator over the wire
 * (usync, profile-picture and blocklist IQs), and each answer is held to the simulator's own view: a registered
 * contact with its LID, a number that is not on WhatsApp, pictures set, absent and hidden (one by one and in a
 * batch), the number behind a LID and the LID behind a number, and a block the account's phone shows and that keeps
 * the contact's texts from arriving; the contacts the session knows (the phone's address book synced at link and
 * its changes, strangers who wrote) listed and read one by one, kept across a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

const nextPhone = phoneSequence('1559');
const CONTACT = `1559${String(process.pid % 1000).padStart(3, '0')}8000`;
const UNKNOWN = `1559${String(process.pid % 1000).padStart(3, '0')}8999`;
const NO_PICTURE = `1559${String(process.pid % 1000).padStart(3, '0')}8001`;
const HIDDEN = `1559${String(process.pid % 1000).padStart(3, '0')}8002`;
const STRANGER = `1559${String(process.pid % 1000).padStart(3, '0')}8003`;
const NEVER_MET = `1559${String(process.pid % 1000).padStart(3, '0')}8004`;

interface Blocklist {
  blocked: { number: string; lid: string }[];
}

describe('contacts with the Baileys engine against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let sessionId: string;
  let phone: string;
  let contactLid: string;

  beforeAll(async () => {
    unrefBaileysUploadTimeouts();
    sim = await startSimulatorProcess();
    gw = await startTestGateway(sim.gatewayEnv);
    contactLid = (await sim.admin.ok<{ lid: string }>('/contacts', { number: CONTACT })).lid;
    await sim.admin.ok('/contacts', { number: NO_PICTURE });
    await sim.admin.ok(`/contacts/${NO_PICTURE}/config`, { picture: 'none' });
    await sim.admin.ok('/contacts', { number: HIDDEN });
    await sim.admin.ok(`/contacts/${HIDDEN}/config`, { picture: 'hidden' });
    phone = nextPhone();
    sessionId = (await linkSessionByQr(gw, sim, phone)).id;
  }, 30_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  const check = (number: string) => gw.request('GET', `/api/sessions/${sessionId}/contacts/check/${number}`);
  const contacts = (method: string, path: string) =>
    gw.request(method, `/api/sessions/${sessionId}/contacts/${path}`);
  const blocklistAtPhone = async () =>
    (await sim.admin.get<Blocklist>(`/accounts/${phone}/blocklist`)).body.blocked.map((b) => b.number);
  /** The contact writes to the account; answers how many of its devices the network delivered the text to. */
  const contactWrites = async (text: string) =>
    (await sim.admin.ok<{ devices: number }>(`/contacts/${CONTACT}/messages`, { to: phone, text })).devices;

  it('checks a number the network knows: its id and the LID the network tells', async () => {
    const answer = await check(CONTACT);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      number: CONTACT,
      exists: true,
      whatsappId: `${CONTACT}@c.us`,
      lid: contactLid,
    });
  });

  it('checks a number that is not on WhatsApp', async () => {
    const answer = await check(UNKNOWN);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ number: UNKNOWN, exists: false, whatsappId: null, lid: null });
  });

  it('reads profile pictures: one that is set, none, a hidden one, by number or LID', async () => {
    const set = await contacts('GET', `${CONTACT}%40c.us/profile-picture`);
    expect(set.status).toBe(200);
    expect(set.body.url).toMatch(new RegExp(`/media/profile/${CONTACT}\\.png`));
    expect((await contacts('GET', `${contactLid.replace('@', '%40')}/profile-picture`)).body.url).toMatch(
      new RegExp(`/media/profile/${CONTACT}\\.png`),
    );
    expect((await contacts('GET', `${NO_PICTURE}%40c.us/profile-picture`)).body).toEqual({ url: null });
    expect((await contacts('GET', `${HIDDEN}%40c.us/profile-picture`)).body).toEqual({ url: null });
  });

  it('resolves a contact’s LID to its phone number', async () => {
    const answer = await contacts('GET', `${contactLid.replace('@', '%40')}/phone`);
    expect(answer.body).toEqual({ contactId: contactLid, phone: CONTACT });
  });

  it('resolves a phone number to the LID the network tells, and a number not on WhatsApp to none', async () => {
    expect((await contacts('GET', `${CONTACT}%40c.us/lid`)).body).toEqual({
      contactId: `${CONTACT}@c.us`,
      lid: contactLid,
    });
    expect((await contacts('GET', `${UNKNOWN}%40c.us/lid`)).body).toEqual({
      contactId: `${UNKNOWN}@c.us`,
      lid: null,
    });
  });

  it('reads a batch of profile pictures, each as the network answers it', async () => {
    const ids = [`${CONTACT}@c.us`, `${NO_PICTURE}@c.us`, `${HIDDEN}@c.us`, contactLid];
    const answer = await contacts('GET', `profile-pictures?ids=${encodeURIComponent(ids.join(','))}`);
    expect(answer.status).toBe(200);
    const pictures = answer.body.pictures as Record<string, string | null>;
    expect(Object.keys(pictures)).toEqual(ids);
    expect(pictures[`${CONTACT}@c.us`]).toMatch(new RegExp(`/media/profile/${CONTACT}\\.png`));
    expect(pictures[contactLid]).toMatch(new RegExp(`/media/profile/${CONTACT}\\.png`));
    expect([pictures[`${NO_PICTURE}@c.us`], pictures[`${HIDDEN}@c.us`]]).toEqual([null, null]);
  });

  it('blocks a contact: the phone shows it and its texts stop arriving; unblocking lets them through', async () => {
    expect(await contactWrites('before the block')).toBe(1);
    expect((await contacts('POST', `${CONTACT}%40c.us/block`)).body).toEqual({
      success: true,
      message: 'Contact blocked',
    });
    expect(await blocklistAtPhone()).toEqual([CONTACT]);
    expect((await contacts('GET', 'blocked')).body).toEqual([`${CONTACT}@c.us`]);
    expect(await contactWrites('while blocked')).toBe(0);

    expect((await contacts('DELETE', `${CONTACT}%40c.us/block`)).status).toBe(200);
    expect(await blocklistAtPhone()).toEqual([]);
    expect((await contacts('GET', 'blocked')).body).toEqual([]);
    expect(await contactWrites('after the unblock')).toBe(1);
  });

  it('blocking a number that is not on WhatsApp is 404', async () => {
    const answer = await contacts('POST', `${UNKNOWN}%40c.us/block`);
    expect(answer.status).toBe(404);
    expect(await blocklistAtPhone()).toEqual([]);
  });

  interface ContactBody {
    id: string;
    number: string | null;
    lid: string | null;
    name?: string;
    pushName?: string;
    isMyContact: boolean;
    isBlocked: boolean;
    profilePicUrl?: string | null;
  }
  const list = async () =>
    (await gw.request('GET', `/api/sessions/${sessionId}/contacts`)).body as ContactBody[];
  const listed = (number: string) => list().then((all) => all.find((contact) => contact.number === number));

  it('lists the address book the phone synced at link: saved names, numbers and LIDs', async () => {
    const contact = await waitFor(() => listed(CONTACT));
    expect(contact).toMatchObject({
      id: `${CONTACT}@c.us`,
      number: CONTACT,
      lid: contactLid,
      name: `Contact ${CONTACT}`,
      isMyContact: true,
      isBlocked: false,
    });
    expect(await listed(NO_PICTURE)).toMatchObject({ name: `Contact ${NO_PICTURE}`, isMyContact: true });
    expect(await listed(UNKNOWN)).toBeUndefined();
  });

  it('lists a stranger who wrote under the name it gives itself, not as a contact', async () => {
    await sim.admin.ok('/contacts', { number: STRANGER, name: 'Stranger Danger', saved: false });
    await sim.admin.ok(`/contacts/${STRANGER}/messages`, { to: phone, text: 'hello from nowhere' });
    const stranger = await waitFor(() => listed(STRANGER));
    expect(stranger).toMatchObject({
      id: `${STRANGER}@c.us`,
      pushName: 'Stranger Danger',
      isMyContact: false,
    });
    expect(stranger.name).toBeUndefined();
  });

  it('a contact renamed on the phone is listed under its new name', async () => {
    await sim.admin.ok(`/contacts/${NO_PICTURE}/config`, { name: 'Renamed On Phone' });
    await waitFor(async () => (await listed(NO_PICTURE))?.name === 'Renamed On Phone');
  });

  it('gets one contact by number or LID, its picture and block read live; 404 for one not on WhatsApp', async () => {
    const byNumber = await contacts('GET', `${CONTACT}%40c.us`);
    expect(byNumber.status).toBe(200);
    expect(byNumber.body).toMatchObject({ id: `${CONTACT}@c.us`, lid: contactLid, isMyContact: true });
    expect(byNumber.body.profilePicUrl).toMatch(new RegExp(`/media/profile/${CONTACT}\\.png`));
    expect((await contacts('GET', contactLid.replace('@', '%40'))).body).toEqual(byNumber.body);
    expect((await contacts('GET', `${HIDDEN}%40c.us`)).body).toMatchObject({ profilePicUrl: null });
    await contacts('POST', `${CONTACT}%40c.us/block`);
    expect((await contacts('GET', `${CONTACT}%40c.us`)).body).toMatchObject({ isBlocked: true });
    expect(await listed(CONTACT)).toMatchObject({ isBlocked: true });
    await contacts('DELETE', `${CONTACT}%40c.us/block`);
    expect((await contacts('GET', `${UNKNOWN}%40c.us`)).status).toBe(404);
  });

  it('gets someone on WhatsApp the account never met, as not its contact', async () => {
    await sim.admin.ok('/contacts', { number: NEVER_MET, saved: false });
    const answer = await contacts('GET', `${NEVER_MET}%40c.us`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: `${NEVER_MET}@c.us`, number: NEVER_MET, isMyContact: false });
    expect(await listed(NEVER_MET)).toBeUndefined();
  });

  it('keeps what it learnt across a restart of the session (WhatsApp does not send the address book again)', async () => {
    const before = await list();
    expect(before.length).toBeGreaterThanOrEqual(4);
    expect((await gw.request('POST', `/api/sessions/${sessionId}/stop`)).status).toBe(200);
    expect((await gw.request('POST', `/api/sessions/${sessionId}/start`)).status).toBe(200);
    await waitForStatus(gw, sessionId, 'ready');
    expect(await list()).toEqual(before);
  });
});
