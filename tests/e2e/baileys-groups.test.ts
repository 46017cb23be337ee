/**
 * Groups end to end: the real Baileys client inside the gateway and three simulated members' phones. Each API
 * operation is held to what the group is at the simulator (members, roles, subject, settings, invite code, join
 * requests), what another member does reaches the gateway (its read of the group, and `group.*` events), and the
 * network's refusals come back as the API's: a person's privacy per participant, 404 for a group the account is not
 * in, 403 GROUP_ADMIN_REQUIRED once the account is no longer an admin.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GroupInfo } from '#shared/domain/group.js';
import { createWebhook, type Receiver, startReceiver } from '#tests/api/webhooks-support.js';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

const nextPhone = phoneSequence('1557');
const base = `1557${String(process.pid % 1000).padStart(3, '0')}`;
const [ALICE, BOB, CAROL, DAVE] = [`${base}6000`, `${base}6001`, `${base}6002`, `${base}6003`];
const id = (number: string) => `${number}@c.us`;

interface SimGroup {
  subject: string;
  description: string | null;
  announce: boolean;
  restrict: boolean;
  inviteCode: string;
  members: { number: string; role: string }[];
  requests: { number: string }[];
}

describe('groups with the Baileys engine against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let receiver: Receiver;
  let sessionId: string;
  let phone: string;
  let groupId: string;

  beforeAll(async () => {
    unrefBaileysUploadTimeouts();
    sim = await startSimulatorProcess();
    gw = await startTestGateway({ ...sim.gatewayEnv, SSRF_ALLOWED_HOSTS: '127.0.0.1' });
    receiver = await startReceiver();
    for (const number of [ALICE, BOB, CAROL, DAVE]) await sim.admin.ok('/contacts', { number });
    await sim.admin.ok(`/contacts/${DAVE}/config`, { groupAdd: 'nobody' });
    phone = nextPhone();
    sessionId = (await linkSessionByQr(gw, sim, phone)).id;
    await createWebhook(gw, sessionId, {
      url: receiver.url,
      events: ['group.join', 'group.leave', 'group.update'],
    });
  }, 30_000);
  afterAll(async () => {
    await receiver?.close();
    await gw?.close();
    await sim?.stop();
  });

  const call = (method: string, path: string, body?: unknown) =>
    gw.request(method, `/api/sessions/${sessionId}/groups${path}`, body === undefined ? {} : { body });
  const at = (path = '') => `/${encodeURIComponent(groupId)}${path}`;
  const atSim = async () => (await sim.admin.get<SimGroup>(`/groups/${groupId}`)).body;
  const roleAtSim = async (number: string) => (await atSim()).members.find((m) => m.number === number)?.role;
  const events = (name: string) =>
    receiver.received
      .map((request) => JSON.parse(request.body) as { event: string; data: Record<string, unknown> })
      .filter((payload) => payload.event === name)
      .map((payload) => payload.data);
  const memberActs = (by: string, action: Record<string, unknown>) =>
    sim.admin.ok(`/groups/${groupId}/actions`, { by, ...action });

  it('creates a group the members see, and reads it back', async () => {
    const created = await call('POST', '', { name: 'Launch', participants: [id(ALICE), id(BOB)] });
    expect(created.status).toBe(201);
    groupId = created.body.id as string;
    expect(created.body).toMatchObject({ name: 'Launch', participantsCount: 3, isAdmin: true });
    expect((await atSim()).members).toEqual(
      expect.arrayContaining([
        { number: phone, role: 'superadmin' },
        { number: ALICE, role: 'member' },
        { number: BOB, role: 'member' },
      ]),
    );
    const info = (await call('GET', at())).body as GroupInfo;
    expect(info).toMatchObject({ id: groupId, name: 'Launch', isAnnounce: false });
    expect(info.participants.map((p) => p.number).sort()).toEqual([phone, ALICE, BOB].sort());
    expect((await call('GET', '')).body).toContainEqual({
      id: groupId,
      name: 'Launch',
      linkedParentJID: null,
    });
  });

  it('adds with a result per person (a privacy refusal among them), promotes, demotes and removes', async () => {
    const added = await call('POST', at('/participants'), { participants: [id(CAROL), id(DAVE), id(ALICE)] });
    expect(added.body.results).toEqual([
      { id: id(CAROL), success: true, status: 200 },
      { id: id(DAVE), success: false, status: 403 },
      { id: id(ALICE), success: false, status: 409 },
    ]);
    expect(await roleAtSim(CAROL)).toBe('member');
    expect(await roleAtSim(DAVE)).toBeUndefined();
    await call('POST', at('/participants/promote'), { participants: [id(ALICE)] });
    expect(await roleAtSim(ALICE)).toBe('admin');
    await call('POST', at('/participants/demote'), { participants: [id(ALICE)] });
    expect(await roleAtSim(ALICE)).toBe('member');
    const removed = await call('POST', at('/participants/remove'), { participants: [id(CAROL)] });
    expect(removed.body).toMatchObject({ success: true, results: [{ id: id(CAROL), status: 200 }] });
    expect(await roleAtSim(CAROL)).toBeUndefined();
  });

  it('sets subject, description and settings at the simulator', async () => {
    await call('PUT', at('/subject'), { subject: 'Launch crew' });
    await call('PUT', at('/description'), { description: 'Go-live on Friday' });
    const settings = await call('PUT', at('/settings'), { announce: true, locked: true });
    expect(settings.body).toMatchObject({ announce: true, locked: true });
    expect(await atSim()).toMatchObject({
      subject: 'Launch crew',
      description: 'Go-live on Friday',
      announce: true,
      restrict: true,
    });
  });

  it('what another member does reaches the gateway: its read and group.* events', async () => {
    await call('POST', at('/participants/promote'), { participants: [id(BOB)] });
    await memberActs(BOB, { action: 'subject', subject: 'Renamed by Bob' });
    await memberActs(BOB, { action: 'add', numbers: [CAROL] });
    await waitFor(
      async () => ((await call('GET', at())).body as GroupInfo).name === 'Renamed by Bob',
      10_000,
    );
    const update = await waitFor(
      () =>
        events('group.update').find(
          (data) => (data.changes as { subject?: string }).subject === 'Renamed by Bob',
        ),
      10_000,
    );
    console.log(JSON.stringify(events('group.update')));
    expect(update).toMatchObject({ groupId, actorId: id(BOB) });
    const joined = await waitFor(
      () =>
        events('group.join').find(
          (data) => (data.participantIds as string[]).includes(id(CAROL)) && data.actorId === id(BOB),
        ),
      10_000,
    );
    expect(joined).toMatchObject({ groupId, participants: [{ phone: id(CAROL) }] });
  });

  it('gives the invite code the group has, revokes it, and tells the group by its code', async () => {
    const { inviteCode } = (await call('GET', at('/invite-code'))).body as { inviteCode: string };
    expect(inviteCode).toBe((await atSim()).inviteCode);
    const info = await call('GET', `/join-info?code=${inviteCode}`);
    expect(info.body).toMatchObject({ id: groupId, name: 'Renamed by Bob' });
    const revoked = await call('POST', at('/invite-code/revoke'));
    expect(revoked.body.inviteCode).toBe((await atSim()).inviteCode);
    expect(revoked.body.inviteCode).not.toBe(inviteCode);
    expect((await call('GET', `/join-info?code=${inviteCode}`)).status).toBe(404);
  });

  it('lists, approves and rejects requests to join', async () => {
    await memberActs(BOB, { action: 'joinApproval', on: true });
    await sim.admin.ok(`/groups/${groupId}/requests`, { number: DAVE });
    await sim.admin.ok(`/groups/${groupId}/requests`, { number: ALICE }).catch(() => undefined);
    const listed = await call('GET', at('/membership-requests'));
    expect((listed.body as { participantId: string }[]).map((r) => r.participantId)).toContain(id(DAVE));
    const approved = await call('POST', at('/membership-requests/approve'), { participants: [id(DAVE)] });
    expect(approved.body).toMatchObject({ success: true, results: [{ id: id(DAVE), status: 200 }] });
    expect(await roleAtSim(DAVE)).toBe('member');
  });

  it('refuses a change once the account is no longer an admin (403), and a group it is not in (404)', async () => {
    await memberActs(BOB, { action: 'demote', numbers: [phone] });
    await waitFor(async () => (await roleAtSim(phone)) === 'member', 10_000);
    const refused = await call('PUT', at('/settings'), { locked: false });
    expect([refused.status, refused.body.code]).toEqual([403, 'GROUP_ADMIN_REQUIRED']);
    expect((await call('GET', `/${encodeURIComponent('120363099999999999@g.us')}`)).status).toBe(404);
  });

  it('leaves the group: gone from the members and from the list', async () => {
    expect((await call('POST', at('/leave'))).body).toEqual({ success: true, message: 'Left the group' });
    await waitFor(async () => (await roleAtSim(phone)) === undefined, 10_000);
    expect(((await call('GET', '')).body as { id: string }[]).map((g) => g.id)).not.toContain(groupId);
    const gone = await call('GET', at());
    expect([gone.status, gone.body.code]).toEqual([404, 'NOT_FOUND']);
  });
});
