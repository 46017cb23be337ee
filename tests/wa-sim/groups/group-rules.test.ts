/**
 * Groups as WhatsApp enforces them, seen by real Baileys clients: admin-only changes refused to a plain member
 * (401 not-authorized) and to a non-member (403 forbidden), info edits until the group is locked, the member add
 * mode, the invitee's privacy refusing an add (403 and a private invitation), join requests under admin approval,
 * and the invite's info.
 */
import { jest } from '@jest/globals';
import { getBinaryNodeChild, type WASocket } from '@whiskeysockets/baileys';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { waitForEvent } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

let sim: TestSim;
let owner: LinkedClient;
let member: LinkedClient;
let group: string;
const OWNER = '15550007001';
const MEMBER = '15550007002';
const [ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GINA] = [1, 2, 3, 4, 5, 6, 7].map((n) => `1555000710${n}`);
const jid = (number: string | undefined): string => `${number}@s.whatsapp.net`;
const NOT_ADMIN = { data: 401, message: 'not-authorized' };

interface GroupView {
  members: Array<{ number: string; role: string }>;
  requests: Array<{ number: string; method: string }>;
  invitations: Array<{ number: string; code: string; inviter: string }>;
  memberAddMode: string;
  joinApproval: boolean;
  restrict: boolean;
  subject: string;
}

async function view(): Promise<GroupView> {
  return (await sim.admin.get<GroupView>(`/groups/${group}`)).body;
}

/** The next `groups.update` of the test group carrying `field`. */
function nextGroupUpdate(sock: WASocket, field: string) {
  return waitForEvent(sock, 'groups.update', (updates) =>
    updates.find((update) => update.id === group && field in update),
  );
}

/** The next `group-participants.update` of the test group with `action`. */
function nextParticipants(sock: WASocket, action: string) {
  return waitForEvent(sock, 'group-participants.update', (update) =>
    update.id === group && update.action === action ? update : undefined,
  );
}

function nextJoinRequest(sock: WASocket, action: string) {
  return waitForEvent(sock, 'group.join-request', (update) =>
    update.id === group && update.action === action ? update : undefined,
  );
}

beforeAll(async () => {
  sim = await startTestSim();
  owner = await linkByQr(sim, { phone: OWNER });
  member = await linkByQr(sim, { phone: MEMBER });
  for (const number of [ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GINA])
    await sim.admin.ok('/contacts', { number, name: `Contact ${number}` });
  await sim.admin.ok(`/contacts/${CAROL}/config`, { groupAdd: 'nobody' });
  group = (await owner.sock.groupCreate('Rules', [jid(MEMBER), jid(ALICE)])).id;
});

afterAll(async () => {
  await closeClient(owner.sock);
  await closeClient(member.sock);
  await sim.stop();
});

describe('admin rights', () => {
  it('refuses a plain member every admin-only change with 401 not-authorized', async () => {
    const m = member.sock;
    await expect(m.groupParticipantsUpdate(group, [jid(BOB)], 'add')).rejects.toMatchObject(NOT_ADMIN);
    for (const action of ['remove', 'promote', 'demote'] as const)
      await expect(m.groupParticipantsUpdate(group, [jid(ALICE)], action)).rejects.toMatchObject(NOT_ADMIN);
    for (const setting of ['announcement', 'not_announcement', 'locked', 'unlocked'] as const)
      await expect(m.groupSettingUpdate(group, setting)).rejects.toMatchObject(NOT_ADMIN);
    await expect(m.groupInviteCode(group)).rejects.toMatchObject(NOT_ADMIN);
    await expect(m.groupRevokeInvite(group)).rejects.toMatchObject(NOT_ADMIN);
    await expect(m.groupMemberAddMode(group, 'all_member_add')).rejects.toMatchObject(NOT_ADMIN);
    await expect(m.groupJoinApprovalMode(group, 'on')).rejects.toMatchObject(NOT_ADMIN);
    await expect(m.groupRequestParticipantsList(group)).rejects.toMatchObject(NOT_ADMIN);
    await expect(m.groupRequestParticipantsUpdate(group, [jid(DAVE)], 'approve')).rejects.toMatchObject(
      NOT_ADMIN,
    );
    const after = await view();
    expect(after.members).toEqual([
      { number: OWNER, role: 'superadmin' },
      { number: MEMBER, role: 'member' },
      { number: ALICE, role: 'member' },
    ]);
    expect(after).toMatchObject({ memberAddMode: 'admin_add', joinApproval: false, restrict: false });
  });

  it('refuses a non-member with 403 forbidden', async () => {
    const other = await owner.sock.groupCreate('Private', [jid(ALICE)]);
    await expect(member.sock.groupMetadata(other.id)).rejects.toMatchObject({
      data: 403,
      message: 'forbidden',
    });
    await expect(member.sock.groupUpdateSubject(other.id, 'mine')).rejects.toMatchObject({ data: 403 });
  });

  it('lets any member edit subject, description and timer until the group is locked', async () => {
    const renamed = nextGroupUpdate(owner.sock, 'subject');
    await member.sock.groupUpdateSubject(group, 'Renamed by a member');
    expect(await renamed).toMatchObject({ subject: 'Renamed by a member', author: jid(MEMBER) });
    await member.sock.groupUpdateDescription(group, 'Member notes');
    await member.sock.groupToggleEphemeral(group, 86_400);
    const locked = nextGroupUpdate(member.sock, 'restrict');
    await owner.sock.groupSettingUpdate(group, 'locked');
    expect(await locked).toMatchObject({ restrict: true, author: jid(OWNER) });
    expect(await member.sock.groupMetadata(group)).toMatchObject({
      restrict: true,
      ephemeralDuration: 86_400,
    });
    await expect(member.sock.groupUpdateSubject(group, 'again')).rejects.toMatchObject(NOT_ADMIN);
    await expect(member.sock.groupUpdateDescription(group, 'again')).rejects.toMatchObject(NOT_ADMIN);
    await expect(member.sock.groupToggleEphemeral(group, 0)).rejects.toMatchObject(NOT_ADMIN);
    await owner.sock.groupUpdateSubject(group, 'Rules');
    await owner.sock.groupSettingUpdate(group, 'unlocked');
    expect((await view()).subject).toBe('Rules');
  });
});

describe('member add mode', () => {
  it('lets every member add under all_member_add, and only admins again under admin_add', async () => {
    const heard = nextGroupUpdate(member.sock, 'memberAddMode');
    await owner.sock.groupMemberAddMode(group, 'all_member_add');
    expect(await heard).toMatchObject({ memberAddMode: true, author: jid(OWNER) });
    expect(await member.sock.groupMetadata(group)).toMatchObject({ memberAddMode: true });
    const added = nextParticipants(owner.sock, 'add');
    const result = await member.sock.groupParticipantsUpdate(group, [jid(BOB)], 'add');
    expect(result).toEqual([expect.objectContaining({ jid: jid(BOB), status: '200' })]);
    expect(await added).toMatchObject({
      author: jid(MEMBER),
      participants: [expect.objectContaining({ id: jid(BOB) })],
    });
    await owner.sock.groupMemberAddMode(group, 'admin_add');
    expect(await owner.sock.groupMetadata(group)).toMatchObject({ memberAddMode: false });
    await expect(member.sock.groupParticipantsUpdate(group, [jid(ERIN)], 'add')).rejects.toMatchObject(
      NOT_ADMIN,
    );
  });
});

describe('privacy on add', () => {
  it('answers 403 with a private invitation for a contact who refuses adds, and adds the others', async () => {
    const result = await owner.sock.groupParticipantsUpdate(
      group,
      [jid(CAROL), jid(ERIN), jid(ALICE)],
      'add',
    );
    expect(result.map(({ jid: who, status }) => [who, status])).toEqual([
      [jid(CAROL), '403'],
      [jid(ERIN), '200'],
      [jid(ALICE), '409'],
    ]);
    // Baileys hands the participant node on: the adder's client sends its <add_request> as a group invite.
    const invitation = getBinaryNodeChild(result[0]?.content, 'add_request');
    expect(invitation).toMatchObject({ tag: 'add_request', attrs: { code: expect.any(String) } });
    const state = await view();
    expect(state.members.map((m) => m.number)).toContain(ERIN);
    expect(state.members.map((m) => m.number)).not.toContain(CAROL);
    expect(state.invitations).toEqual([
      expect.objectContaining({ number: CAROL, code: invitation?.attrs.code, inviter: OWNER }),
    ]);
    const joined = nextParticipants(owner.sock, 'add');
    await sim.admin.ok(`/groups/${group}/actions`, { by: CAROL, action: 'acceptInvite' });
    expect(await joined).toMatchObject({
      author: jid(CAROL),
      participants: [expect.objectContaining({ id: jid(CAROL) })],
    });
    expect((await view()).invitations).toEqual([]);
  });
});

describe('join approval', () => {
  it('turns approval on, files a request and lets an admin list and approve it', async () => {
    const heard = nextGroupUpdate(member.sock, 'joinApprovalMode');
    await owner.sock.groupJoinApprovalMode(group, 'on');
    expect(await heard).toMatchObject({ joinApprovalMode: true });
    expect(await member.sock.groupMetadata(group)).toMatchObject({ joinApprovalMode: true });
    const created = nextJoinRequest(owner.sock, 'created');
    const asked = await sim.admin.ok<{ outcome: string }>(`/groups/${group}/requests`, { number: DAVE });
    expect(asked.outcome).toBe('requested');
    expect(await created).toMatchObject({
      participant: jid(DAVE),
      participantPn: jid(DAVE),
      method: 'invite_link',
    });
    const list = await owner.sock.groupRequestParticipantsList(group);
    expect(list).toEqual([
      expect.objectContaining({
        jid: jid(DAVE),
        request_method: 'invite_link',
        request_time: expect.any(String),
      }),
    ]);
    const added = nextParticipants(member.sock, 'add');
    const decided = await owner.sock.groupRequestParticipantsUpdate(
      group,
      [jid(DAVE), jid(FRANK)],
      'approve',
    );
    expect(decided).toEqual([
      { jid: jid(DAVE), status: '200' },
      { jid: jid(FRANK), status: '404' },
    ]);
    expect(await added).toMatchObject({
      author: jid(OWNER),
      participants: [expect.objectContaining({ id: jid(DAVE) })],
    });
    expect(await owner.sock.groupRequestParticipantsList(group)).toEqual([]);
  });

  it('tells the admins of a rejection and of a request taken back', async () => {
    await sim.admin.ok(`/groups/${group}/requests`, { number: FRANK });
    const rejected = nextJoinRequest(owner.sock, 'rejected');
    expect(await owner.sock.groupRequestParticipantsUpdate(group, [jid(FRANK)], 'reject')).toEqual([
      { jid: jid(FRANK), status: '200' },
    ]);
    expect(await rejected).toMatchObject({
      participant: jid(FRANK),
      participantPn: jid(FRANK),
      author: jid(OWNER),
    });
    await sim.admin.ok(`/groups/${group}/requests`, { number: GINA });
    const revoked = nextJoinRequest(owner.sock, 'revoked');
    await sim.admin.ok(`/groups/${group}/requests`, { number: GINA, action: 'cancel' });
    expect(await revoked).toMatchObject({ participant: jid(GINA), author: jid(GINA) });
    expect((await view()).requests).toEqual([]);
    expect(
      (await sim.admin.post(`/groups/${group}/requests`, { number: GINA, action: 'cancel' })).status,
    ).toBe(404);
  });

  it('files a Baileys client’s join by invite code as a request, and adds at once without approval', async () => {
    const code = await owner.sock.groupInviteCode(group);
    const left = nextParticipants(owner.sock, 'remove');
    await member.sock.groupLeave(group);
    expect(await left).toMatchObject({
      author: jid(MEMBER),
      participants: [expect.objectContaining({ id: jid(MEMBER) })],
    });
    expect(await member.sock.groupAcceptInvite(code ?? '')).toBeUndefined();
    expect((await view()).requests).toEqual([
      expect.objectContaining({ number: MEMBER, method: 'invite_link' }),
    ]);
    await owner.sock.groupJoinApprovalMode(group, 'off');
    const joined = await sim.admin.ok<{ outcome: string }>(`/groups/${group}/requests`, { number: GINA });
    expect(joined.outcome).toBe('added');
  });
});

describe('invite info', () => {
  it('answers groupGetInviteInfo with the group as members see it, to a non-member too', async () => {
    await owner.sock.groupUpdateDescription(group, 'About the rules');
    const code = await owner.sock.groupInviteCode(group);
    const info = await member.sock.groupGetInviteInfo(code ?? '');
    const state = await view();
    expect(info).toMatchObject({
      id: group,
      subject: 'Rules',
      desc: 'About the rules',
      owner: jid(OWNER),
      size: state.members.length,
      creation: expect.any(Number),
    });
    await expect(member.sock.groupGetInviteInfo('nosuchcode')).rejects.toMatchObject({ data: 404 });
  });
});
