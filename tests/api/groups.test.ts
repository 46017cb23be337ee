/**
 * The group routes on the test engine, whose network keeps every group (the Baileys engine against the simulator,
 * with three members' phones: tests/e2e/baileys-groups.test.ts): creating, reading, members with a result each,
 * subject, description and settings, invite codes, joining and leaving, the 404 of a group the account is not in and
 * the 403 of a change only admins may make, and the group.* events with each person by both ids. Both modes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GroupInfo } from '#shared/domain/group.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { expectError, expectValidation, linkedSession } from './sessions-support.js';
import { createWebhook, type Receiver, startReceiver } from './webhooks-support.js';

const ME = '15550001111@c.us';
const ALICE = '15550002222@c.us';
const BOB = '15550003333@c.us';
const CAROL = '15550004444@c.us';
const NOBODY = '15550009999@c.us';

describe('groups', () => {
  let gw: TestGateway;
  let receiver: Receiver;
  let sessionId: string;
  let groupId: string;
  const call = (method: string, path: string, body?: unknown) =>
    gw.request(method, `/api/sessions/${sessionId}/groups${path}`, body === undefined ? {} : { body });
  const group = async () => (await call('GET', `/${encodeURIComponent(groupId)}`)).body as GroupInfo;
  const events = (name: string) =>
    receiver.received
      .map((request) => JSON.parse(request.body) as { event: string; data: Record<string, unknown> })
      .filter((payload) => payload.event === name)
      .map((payload) => payload.data);

  beforeAll(async () => {
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: '127.0.0.1' });
    receiver = await startReceiver();
    for (const id of [ALICE, BOB, CAROL]) gw.network.directory.register(id.slice(0, 11));
    sessionId = (await linkedSession(gw)).id;
    gw.network.linkIdentity(sessionId, { lid: '880001@lid', phone: ALICE });
    await createWebhook(gw, sessionId, {
      url: receiver.url,
      events: ['group.join', 'group.leave', 'group.update'],
    });
  }, 60_000);
  afterAll(async () => {
    await receiver.close();
    await gw.close();
  });

  it('creates a group with the account as its admin, and lists and reads it', async () => {
    const created = await call('POST', '', { name: 'Team', participants: [ALICE, BOB] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Team',
      participantsCount: 3,
      isAdmin: true,
      linkedParentJID: null,
    });
    groupId = created.body.id as string;
    expect((await call('GET', '')).body).toEqual([{ id: groupId, name: 'Team', linkedParentJID: null }]);
    const info = await group();
    expect(info).toMatchObject({
      id: groupId,
      name: 'Team',
      owner: ME,
      isAnnounce: false,
      isReadOnly: false,
    });
    expect(info.participants).toEqual([
      { id: ME, number: '15550001111', lid: null, isAdmin: true, isSuperAdmin: true },
      { id: ALICE, number: '15550002222', lid: null, isAdmin: false, isSuperAdmin: false },
      { id: BOB, number: '15550003333', lid: null, isAdmin: false, isSuperAdmin: false },
    ]);
    const [joined] = await waitFor(() =>
      events('group.join').length > 0 ? events('group.join') : undefined,
    );
    expect(joined).toMatchObject({ groupId, actorId: ME, participantIds: [ME, ALICE, BOB] });
    expect(joined?.participants).toContainEqual({ phone: ALICE, lid: '880001@lid' });
  });

  it('adds, promotes, demotes and removes members with a result for each person', async () => {
    const added = await call('POST', `/${encodeURIComponent(groupId)}/participants`, {
      participants: [CAROL, ALICE, NOBODY],
    });
    expect(added.body).toEqual({
      success: true,
      message: 'Participants added',
      results: [
        { id: CAROL, success: true, status: 200 },
        { id: ALICE, success: false, status: 409 },
        { id: NOBODY, success: false, status: 404 },
      ],
    });
    const members = async (path: string) =>
      (await call('POST', `/${encodeURIComponent(groupId)}/participants/${path}`, { participants: [CAROL] }))
        .body;
    expect(await members('promote')).toMatchObject({ success: true, results: [{ id: CAROL, status: 200 }] });
    expect((await group()).participants.find((p) => p.id === CAROL)?.isAdmin).toBe(true);
    expect(await members('demote')).toMatchObject({ success: true });
    expect(await members('remove')).toMatchObject({ success: true, message: 'Participants removed' });
    expect((await group()).participants.map((p) => p.id)).toEqual([ME, ALICE, BOB]);
    await waitFor(() =>
      events('group.update').some((data) => (data.changes as { promoted?: boolean }).promoted),
    );
    await waitFor(() =>
      events('group.leave').some((data) => (data.participantIds as string[]).includes(CAROL)),
    );
  });

  it('sets the subject, the description and the settings', async () => {
    const path = `/${encodeURIComponent(groupId)}`;
    expect((await call('PUT', `${path}/subject`, { subject: 'Release team' })).body).toEqual({
      success: true,
      message: 'Group subject updated',
    });
    await call('PUT', `${path}/description`, { description: 'Ships on Fridays' });
    const settings = await call('PUT', `${path}/settings`, { announce: true, memberAddMode: 'all' });
    expect(settings.body).toEqual({
      announce: true,
      locked: false,
      ephemeralSeconds: 0,
      memberAddMode: 'all',
    });
    expect((await call('GET', `${path}/settings`)).body).toEqual(settings.body);
    expect(await group()).toMatchObject({
      name: 'Release team',
      description: 'Ships on Fridays',
      isAnnounce: true,
    });
    expectValidation(await call('PUT', `${path}/settings`, {}), 'body');
    expectValidation(await call('PUT', `${path}/settings`, { ephemeralSeconds: 5 }), 'body.ephemeralSeconds');
    await waitFor(() =>
      events('group.update').some((data) => data.changes && 'subject' in (data.changes as object)),
    );
  });

  it('gives an invite code, revokes it, and tells a group by its code', async () => {
    const path = `/${encodeURIComponent(groupId)}/invite-code`;
    const { inviteCode } = (await call('GET', path)).body as { inviteCode: string };
    expect((await call('GET', path)).body).toEqual({
      inviteCode,
      inviteLink: `https://chat.whatsapp.com/${inviteCode}`,
    });
    const info = await call('GET', `/join-info?code=${inviteCode}`);
    expect(info.body).toMatchObject({ id: groupId, name: 'Release team', participantCount: 3 });
    const revoked = await call('POST', `${path}/revoke`);
    expect(revoked.body.inviteCode).not.toBe(inviteCode);
    expectError(await call('GET', `/join-info?code=${inviteCode}`), 404, 'NOT_FOUND');
  });

  it('a group the account is not in is 404; a change only admins may make is 403', async () => {
    expectError(await call('GET', `/${encodeURIComponent('120363099999999999@g.us')}`), 404, 'NOT_FOUND');
    const other = gw.network.groups.create(ALICE, 'Not mine', [ME]);
    expectError(
      await call('PUT', `/${encodeURIComponent(other.id)}/subject`, { subject: 'Mine now' }),
      403,
      'GROUP_ADMIN_REQUIRED',
    );
    expectValidation(await call('GET', '/not-a-group'), 'path.groupId');
    expectValidation(await call('POST', '', { name: 'x', participants: [] }), 'body.participants');
  });

  it('joins by invite code and leaves', async () => {
    const elsewhere = gw.network.groups.create(BOB, 'Open house', [ALICE]);
    const joined = await call('POST', '/join', { inviteCode: elsewhere.inviteCode });
    expect(joined.body).toEqual({ success: true, groupId: elsewhere.id });
    expect((await call('GET', '')).body).toHaveLength(3);
    const left = await call('POST', `/${encodeURIComponent(elsewhere.id)}/leave`);
    expect(left.body).toEqual({ success: true, message: 'Left the group' });
    expectError(await call('GET', `/${encodeURIComponent(elsewhere.id)}`), 404, 'NOT_FOUND');
  });

  it('lists, approves and rejects requests to join', async () => {
    const found = gw.network.groups.groups.get(groupId);
    found?.requests.set(CAROL, 1_790_000_000);
    found?.requests.set(NOBODY, 1_790_000_001);
    const path = `/${encodeURIComponent(groupId)}/membership-requests`;
    expect((await call('GET', path)).body).toEqual([
      { participantId: CAROL, requestedAt: 1_790_000_000, method: 'invite_link' },
      { participantId: NOBODY, requestedAt: 1_790_000_001, method: 'invite_link' },
    ]);
    expect((await call('POST', `${path}/reject`, { participants: [NOBODY] })).body).toMatchObject({
      success: true,
      results: [{ id: NOBODY, status: 200 }],
    });
    expect((await call('POST', `${path}/approve`, {})).body).toMatchObject({
      success: true,
      results: [{ id: CAROL, status: 200 }],
    });
    expect((await group()).participants.map((p) => p.id)).toContain(CAROL);
  });
});
