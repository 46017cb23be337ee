/**
 * Other members acting on a group through the admin API (`POST /admin/groups/{jid}/actions`), under the rules a
 * companion's iq gets, and what a gateway's Baileys client hears of it: `groups.update` for the group's info and
 * settings, `group-participants.update` for members. `GET /admin/groups/{jid}` shows the group as members see it.
 */
import { jest } from '@jest/globals';
import type { WASocket } from '@whiskeysockets/baileys';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { waitForEvent } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

let sim: TestSim;
let client: LinkedClient;
let group: string;
const PHONE = '15550008001';
const [ALICE, BOB, CAROL, DAVE] = [1, 2, 3, 4].map((n) => `1555000810${n}`);
const jid = (number: string | undefined): string => `${number}@s.whatsapp.net`;

/** A member's action; answers the status and body. */
function act(body: Record<string, unknown>) {
  return sim.admin.post<{ error?: string; results?: unknown[]; group: Record<string, unknown> }>(
    `/groups/${group}/actions`,
    body,
  );
}

function nextGroupUpdate(sock: WASocket, field: string) {
  return waitForEvent(sock, 'groups.update', (updates) =>
    updates.find((update) => update.id === group && field in update),
  );
}

function nextParticipants(sock: WASocket, action: string) {
  return waitForEvent(sock, 'group-participants.update', (update) =>
    update.id === group && update.action === action ? update : undefined,
  );
}

beforeAll(async () => {
  sim = await startTestSim();
  client = await linkByQr(sim, { phone: PHONE });
  for (const number of [ALICE, BOB, CAROL, DAVE]) await sim.admin.ok('/contacts', { number });
  group = (await client.sock.groupCreate('Members', [jid(ALICE), jid(BOB)])).id;
});

afterAll(async () => {
  await closeClient(client.sock);
  await sim.stop();
});

describe('another member changes the group', () => {
  it('renames it and describes it: groups.update with the member as author', async () => {
    const renamed = nextGroupUpdate(client.sock, 'subject');
    expect((await act({ by: ALICE, action: 'subject', subject: 'Alice was here' })).status).toBe(200);
    expect(await renamed).toEqual(
      expect.objectContaining({ id: group, subject: 'Alice was here', author: jid(ALICE) }),
    );
    const described = nextGroupUpdate(client.sock, 'desc');
    await act({ by: ALICE, action: 'description', description: 'Plans' });
    expect(await described).toMatchObject({ desc: 'Plans', author: jid(ALICE) });
    expect(await client.sock.groupMetadata(group)).toMatchObject({
      subject: 'Alice was here',
      subjectOwner: jid(ALICE),
      desc: 'Plans',
      descOwner: jid(ALICE),
    });
  });

  it('refuses a plain member’s admin-only action (403) and a non-member’s any action', async () => {
    const refused = await act({ by: ALICE, action: 'add', numbers: [CAROL] });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/not an admin/);
    expect((await act({ by: CAROL, action: 'subject', subject: 'nope' })).status).toBe(403);
  });

  it('adds, promotes, demotes and removes as an admin: group-participants.update', async () => {
    const promoted = nextParticipants(client.sock, 'promote');
    await client.sock.groupParticipantsUpdate(group, [jid(ALICE)], 'promote');
    expect(await promoted).toMatchObject({
      author: jid(PHONE),
      participants: [expect.objectContaining({ id: jid(ALICE) })],
    });
    const added = nextParticipants(client.sock, 'add');
    const reply = await act({ by: ALICE, action: 'add', numbers: [CAROL, BOB] });
    expect(reply.body.results).toEqual([
      { number: CAROL, status: '200' },
      { number: BOB, status: '409' },
    ]);
    const addition = await added;
    expect(addition).toMatchObject({
      author: jid(ALICE),
      participants: [expect.objectContaining({ id: jid(CAROL) })],
    });
    expect(addition.participants[0]?.lid).toMatch(/@lid$/);
    for (const action of ['promote', 'demote', 'remove'] as const) {
      const heard = nextParticipants(client.sock, action);
      expect((await act({ by: ALICE, action, numbers: [BOB] })).status).toBe(200);
      expect(await heard).toMatchObject({
        author: jid(ALICE),
        participants: [expect.objectContaining({ id: jid(BOB) })],
      });
    }
    const members = (await client.sock.groupMetadata(group)).participants.map((p) => [p.id, p.admin]);
    expect(members).toEqual([
      [jid(PHONE), 'superadmin'],
      [jid(ALICE), 'admin'],
      [jid(CAROL), null],
    ]);
  });

  it('changes the settings: groups.update announce, restrict, memberAddMode, joinApprovalMode', async () => {
    const changes = [
      [{ action: 'announce', on: true }, { announce: true }],
      [{ action: 'locked', on: true }, { restrict: true }],
      [{ action: 'memberAddMode', mode: 'all_member_add' }, { memberAddMode: true }],
      [{ action: 'joinApproval', on: true }, { joinApprovalMode: true }],
    ] as const;
    for (const [body, expected] of changes) {
      const [field] = Object.keys(expected);
      const heard = nextGroupUpdate(client.sock, field ?? '');
      expect((await act({ by: ALICE, ...body })).status).toBe(200);
      expect(await heard).toMatchObject({ ...expected, author: jid(ALICE) });
    }
    // In an announcement group only admins write.
    const silenced = await sim.admin.post(`/contacts/${CAROL}/messages`, { to: group, text: 'may I?' });
    expect(silenced.status).toBe(403);
    expect((await sim.admin.post(`/contacts/${ALICE}/messages`, { to: group, text: 'I may' })).status).toBe(
      200,
    );
  });

  it('turns disappearing messages on: a protocol message and chats.update, no groups.update', async () => {
    const chat = waitForEvent(client.sock, 'chats.update', (updates) =>
      updates.find((update) => update.id === group && update.ephemeralExpiration !== undefined),
    );
    const stub = waitForEvent(client.sock, 'messages.upsert', ({ messages }) =>
      messages.find((message) => message.key.remoteJid === group && message.message?.protocolMessage),
    );
    expect((await act({ by: ALICE, action: 'ephemeral', expiration: 604_800 })).status).toBe(200);
    expect(await chat).toMatchObject({ ephemeralExpiration: 604_800 });
    expect((await stub).message?.protocolMessage).toMatchObject({ type: 3, ephemeralExpiration: 604_800 });
    await act({ by: ALICE, action: 'ephemeral', expiration: 0 });
  });

  it('lets the account’s own phone act too, seen as the account’s change', async () => {
    const renamed = nextGroupUpdate(client.sock, 'subject');
    await act({ by: PHONE, action: 'subject', subject: 'From the phone' });
    expect(await renamed).toMatchObject({ subject: 'From the phone', author: jid(PHONE) });
  });

  it('sees a member leave as a remove by itself', async () => {
    const left = nextParticipants(client.sock, 'remove');
    expect((await act({ by: CAROL, action: 'leave' })).status).toBe(200);
    expect(await left).toMatchObject({
      author: jid(CAROL),
      participants: [expect.objectContaining({ id: jid(CAROL) })],
    });
  });
});

describe('GET /admin/groups/{jid}', () => {
  it('shows the group as its members see it', async () => {
    await sim.admin.ok(`/groups/${group}/requests`, { number: DAVE });
    const view = (await sim.admin.get(`/groups/${group}`)).body;
    expect(view).toEqual({
      jid: group,
      subject: 'From the phone',
      description: 'Plans',
      owner: PHONE,
      creation: expect.any(Number),
      announce: true,
      restrict: true,
      ephemeral: 0,
      memberAddMode: 'all_member_add',
      joinApproval: true,
      inviteCode: expect.any(String),
      picture: null,
      members: [
        { number: PHONE, role: 'superadmin' },
        { number: ALICE, role: 'admin' },
      ],
      requests: [{ number: DAVE, requestedAt: expect.any(String), method: 'invite_link' }],
      invitations: [],
    });
  });

  it('answers 404 for an unknown group or actor and 400 for a bad action', async () => {
    expect((await sim.admin.get('/groups/120363000000000000@g.us')).status).toBe(404);
    expect((await act({ by: '15559999999', action: 'leave' })).status).toBe(404);
    expect((await act({ by: ALICE, action: 'subject' })).status).toBe(400);
    expect((await act({ by: ALICE, action: 'ephemeral', expiration: 5 })).status).toBe(400);
    expect((await act({ by: ALICE, action: 'explode' })).status).toBe(400);
  });
});
