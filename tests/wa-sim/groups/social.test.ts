/** Groups (w:g2 and sender-key messages both ways), presence and chat states, and on-WhatsApp lookups. */
import { jest } from '@jest/globals';
import type { GroupMetadata } from '@whiskeysockets/baileys';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { waitForText } from '#tests/wa-sim/harness/messages.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { eventually, waitForEvent } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

let sim: TestSim;
let client: LinkedClient;
const PHONE = '15550005001';
const ALICE = '15550006001';
const BOB = '15550006002';
const CAROL = '15550006003';
const jid = (number: string): string => `${number}@s.whatsapp.net`;

beforeAll(async () => {
  sim = await startTestSim();
  client = await linkByQr(sim, { phone: PHONE });
  for (const number of [ALICE, BOB, CAROL])
    await sim.admin.ok('/contacts', { number, name: `Contact ${number}` });
});

afterAll(async () => {
  await closeClient(client.sock);
  await sim.stop();
});

describe('groups', () => {
  let group: GroupMetadata;

  it('creates a group and answers metadata and the participating list', async () => {
    group = await client.sock.groupCreate('Sim group', [jid(ALICE), jid(BOB)]);
    expect(group.id).toMatch(/@g\.us$/);
    expect(group.participants.map((p) => p.id).sort()).toEqual([jid(PHONE), jid(ALICE), jid(BOB)].sort());
    const metadata = await client.sock.groupMetadata(group.id);
    expect(metadata).toMatchObject({ subject: 'Sim group', owner: jid(PHONE), size: 3 });
    const all = await client.sock.groupFetchAllParticipating();
    expect(Object.keys(all)).toContain(group.id);
  });

  it('delivers an outbound group text to every member contact (skmsg)', async () => {
    const sent = await client.sock.sendMessage(group.id, { text: 'hello group' });
    for (const number of [ALICE, BOB]) {
      const message = await eventually(async () => {
        const inbox = (
          await sim.admin.get<Array<{ id: string; group?: string; text?: string }>>(
            `/contacts/${number}/messages`,
          )
        ).body;
        return inbox.find((entry) => entry.text === 'hello group');
      });
      expect(message).toMatchObject({ id: sent?.key.id, group: group.id });
    }
    await client.sock.sendMessage(group.id, { text: 'second, sender key only' });
    await eventually(async () => {
      const inbox = (await sim.admin.get<Array<{ text?: string }>>(`/contacts/${ALICE}/messages`)).body;
      return inbox.some((entry) => entry.text === 'second, sender key only');
    });
  });

  it('delivers a member contact’s group text as messages.upsert', async () => {
    const arrived = waitForText(client.sock, 'hi all');
    await sim.admin.ok(`/contacts/${ALICE}/messages`, { to: group.id, text: 'hi all' });
    const message = await arrived;
    expect(message.key).toMatchObject({ remoteJid: group.id, participant: jid(ALICE), fromMe: false });
    const again = waitForText(client.sock, 'and again');
    await sim.admin.ok(`/contacts/${ALICE}/messages`, { to: group.id, text: 'and again' });
    await again;
  });

  it('adds and removes participants, and changes subject, description and invite code', async () => {
    const added = await client.sock.groupParticipantsUpdate(group.id, [jid(CAROL)], 'add');
    expect(added).toEqual([expect.objectContaining({ jid: jid(CAROL), status: '200' })]);
    const removed = await client.sock.groupParticipantsUpdate(group.id, [jid(BOB)], 'remove');
    expect(removed).toEqual([expect.objectContaining({ jid: jid(BOB), status: '200' })]);
    await client.sock.groupUpdateSubject(group.id, 'Renamed');
    await client.sock.groupUpdateDescription(group.id, 'About us');
    const metadata = await client.sock.groupMetadata(group.id);
    expect(metadata).toMatchObject({ subject: 'Renamed', desc: 'About us' });
    expect(metadata.participants.map((p) => p.id).sort()).toEqual(
      [jid(PHONE), jid(ALICE), jid(CAROL)].sort(),
    );
    const code = await client.sock.groupInviteCode(group.id);
    expect(code).toMatch(/^[\w-]{10,}$/);
    expect(await client.sock.groupRevokeInvite(group.id)).not.toBe(code);
  });

  it('refuses a message from a contact that is not a member', async () => {
    const reply = await sim.admin.post(`/contacts/${BOB}/messages`, { to: group.id, text: 'let me in' });
    expect(reply.status).toBe(400);
  });
});

describe('presence', () => {
  it('answers a subscription with the contact’s presence and pushes changes', async () => {
    const first = waitForEvent(client.sock, 'presence.update', (update) => update.presences[jid(ALICE)]);
    await client.sock.presenceSubscribe(jid(ALICE));
    expect(await first).toMatchObject({ lastKnownPresence: 'available' });
    const offline = waitForEvent(client.sock, 'presence.update', (update) => update.presences[jid(ALICE)]);
    await sim.admin.ok(`/contacts/${ALICE}/config`, { online: false });
    expect(await offline).toMatchObject({ lastKnownPresence: 'unavailable', lastSeen: expect.any(Number) });
  });

  it('shows a contact’s chat state (composing) to the client', async () => {
    const typing = waitForEvent(client.sock, 'presence.update', (update) => update.presences[jid(BOB)]);
    await sim.admin.ok(`/contacts/${BOB}/chatstate`, { to: PHONE, state: 'composing' });
    expect(await typing).toMatchObject({ lastKnownPresence: 'composing' });
  });

  it('records the client’s chat state at the contact, and its own availability', async () => {
    await client.sock.sendPresenceUpdate('composing', jid(CAROL));
    const contact = await eventually(async () => {
      const view = (await sim.admin.get<{ lastChatstate?: { state: string } }>(`/contacts/${CAROL}`)).body;
      return view.lastChatstate;
    });
    expect(contact.state).toBe('composing');
    // `available` needs a push name, which the phone's post-link messages gave the client.
    await eventually(() => client.sock.authState.creds.me?.name);
    await client.sock.sendPresenceUpdate('available');
    await eventually(
      async () => (await sim.admin.get<{ online: boolean }>(`/accounts/${PHONE}`)).body.online,
    );
  });
});

describe('on-WhatsApp lookups (usync)', () => {
  it('finds a known number and leaves an unknown one out', async () => {
    const found = await client.sock.onWhatsApp(jid(ALICE), '15557770000@s.whatsapp.net');
    expect(found).toEqual([{ jid: jid(ALICE), exists: true }]);
  });
});
