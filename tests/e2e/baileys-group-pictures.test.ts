/**
 * A group's picture end to end: the real Baileys client inside the gateway and two simulated members' phones. A
 * picture set through the API (base64, or a URL the host fetches) is the one the simulator's group has and serves at
 * the URL the API then answers; one a member sets on the phone is what the API reads next, with a group.update that
 * names the member; a removal reaches the simulator; the network's refusals come back as the API's (400 for an image
 * sharp cannot read, 403 GROUP_ADMIN_REQUIRED in a locked group once the account is no admin, 404 for a group the
 * account is not in).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createWebhook, type Receiver, startReceiver } from '#tests/api/webhooks-support.js';
import { type FileServer, startFileServer } from '#tests/helpers/file-server.js';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { renderPicture } from '#tests/wa-sim/accounts/profile-picture.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

const nextPhone = phoneSequence('1558');
const base = `1558${String(process.pid % 1000).padStart(3, '0')}`;
const [ALICE, BOB] = [`${base}7000`, `${base}7001`];
const id = (number: string) => `${number}@c.us`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const PNG = renderPicture('team');

interface SimPicture {
  id: string;
  sha256: string;
  mimetype: string;
  author: string;
}

describe('group pictures with the Baileys engine against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let files: FileServer;
  let receiver: Receiver;
  let sessionId: string;
  let phone: string;
  let groupId: string;

  beforeAll(async () => {
    unrefBaileysUploadTimeouts();
    sim = await startSimulatorProcess();
    gw = await startTestGateway({ ...sim.gatewayEnv, SSRF_ALLOWED_HOSTS: '127.0.0.1' });
    files = await startFileServer({ '/logo.png': { type: 'image/png', body: renderPicture('logo') } });
    receiver = await startReceiver();
    for (const number of [ALICE, BOB]) await sim.admin.ok('/contacts', { number });
    phone = nextPhone();
    sessionId = (await linkSessionByQr(gw, sim, phone)).id;
    await createWebhook(gw, sessionId, { url: receiver.url, events: ['group.update'] });
    const created = await gw.request('POST', `/api/sessions/${sessionId}/groups`, {
      body: { name: 'Pictures', participants: [id(ALICE), id(BOB)] },
    });
    groupId = created.body.id as string;
  }, 30_000);
  afterAll(async () => {
    await receiver?.close();
    await files?.close();
    await gw?.close();
    await sim?.stop();
  });

  const at = (group = groupId) => `/api/sessions/${sessionId}/groups/${encodeURIComponent(group)}/picture`;
  const put = (body: unknown, group = groupId) => gw.request('PUT', at(group), { body });
  const pictureUrl = async () => ((await gw.request('GET', at())).body as { url: string | null }).url;
  const atSim = async () =>
    (await sim.admin.get<{ picture: SimPicture | null }>(`/groups/${groupId}`)).body.picture;
  const memberActs = (by: string, action: Record<string, unknown>) =>
    sim.admin.ok(`/groups/${groupId}/actions`, { by, ...action });
  /** The bytes at the URL the API answers for the group's picture. */
  const fetchPicture = async () => {
    const response = await fetch((await pictureUrl()) ?? 'http://127.0.0.1:9/none');
    expect(response.status).toBe(200);
    return new Uint8Array(await response.arrayBuffer());
  };
  const pictureUpdates = () =>
    receiver.received
      .map((request) => JSON.parse(request.body) as { event: string; data: Record<string, unknown> })
      .filter((payload) => payload.event === 'group.update' && payload.data.groupId === groupId)
      .filter((payload) => (payload.data.changes as { picture?: string }).picture !== undefined)
      .map((payload) => payload.data);

  it('starts without a picture', async () => {
    expect(await gw.request('GET', at())).toMatchObject({ status: 200, body: { url: null } });
    expect(await atSim()).toBeNull();
  });

  it('sets a picture in base64: the simulator’s group has it, and the URL the API answers serves it', async () => {
    const set = await put({ data: PNG.toString('base64'), mimetype: 'image/png' });
    expect([set.status, set.body]).toEqual([200, { success: true, message: 'Group picture updated' }]);
    const picture = await atSim();
    // Baileys sends the 640×640 JPEG it made with sharp.
    expect(picture).toMatchObject({ author: phone, mimetype: 'image/jpeg' });
    expect(sha256(await fetchPicture())).toBe(picture?.sha256);
    const told = await waitFor(() => pictureUpdates()[0], 10_000);
    expect(told).toMatchObject({ actorId: id(phone), changes: { picture: 'set' } });
  });

  it('sets one from a URL the host fetched, and refuses an image sharp cannot read (400)', async () => {
    const before = await atSim();
    expect((await put({ url: `${files.base}/logo.png` })).status).toBe(200);
    const after = await atSim();
    expect(after?.id).not.toBe(before?.id);
    expect(sha256(await fetchPicture())).toBe(after?.sha256);
    const garbage = await put({ data: Buffer.alloc(64, 1).toString('base64'), mimetype: 'image/png' });
    expect([garbage.status, garbage.body.code]).toEqual([400, 'MEDIA_TYPE_NOT_ALLOWED']);
    expect(await atSim()).toEqual(after);
  });

  it('reads a picture a member set on the phone, told as a group.update naming the member', async () => {
    const before = await pictureUrl();
    await memberActs(ALICE, { action: 'picture' });
    const picture = await atSim();
    expect(picture).toMatchObject({ author: ALICE, mimetype: 'image/png' });
    await waitFor(async () => (await pictureUrl()) !== before, 10_000);
    expect(sha256(await fetchPicture())).toBe(picture?.sha256);
    const told = await waitFor(() => pictureUpdates().find((data) => data.actorId === id(ALICE)), 10_000);
    expect(told).toMatchObject({ changes: { picture: 'set' }, actor: { phone: id(ALICE) } });
  });

  it('removes the picture at the simulator', async () => {
    const removed = await gw.request('DELETE', at());
    expect([removed.status, removed.body]).toEqual([
      200,
      { success: true, message: 'Group picture removed' },
    ]);
    expect(await atSim()).toBeNull();
    expect(await pictureUrl()).toBeNull();
    const told = await waitFor(
      () => pictureUpdates().find((data) => (data.changes as { picture: string }).picture === 'removed'),
      10_000,
    );
    expect(told).toMatchObject({ actorId: id(phone) });
  });

  it('refuses a change in a locked group once the account is no admin (403), and reads it still', async () => {
    await gw.request(
      'POST',
      `/api/sessions/${sessionId}/groups/${encodeURIComponent(groupId)}/participants/promote`,
      {
        body: { participants: [id(ALICE)] },
      },
    );
    await memberActs(ALICE, { action: 'picture' });
    await memberActs(ALICE, { action: 'locked', on: true });
    await memberActs(ALICE, { action: 'demote', numbers: [phone] });
    const kept = await atSim();
    const refused = await put({ data: PNG.toString('base64'), mimetype: 'image/png' });
    expect([refused.status, refused.body.code]).toEqual([403, 'GROUP_ADMIN_REQUIRED']);
    const notRemoved = await gw.request('DELETE', at());
    expect([notRemoved.status, notRemoved.body.code]).toEqual([403, 'GROUP_ADMIN_REQUIRED']);
    expect(await atSim()).toEqual(kept);
    expect(sha256(await fetchPicture())).toBe(kept?.sha256);
  });

  it('answers 404 for a group the account is not in', async () => {
    const unknown = '120363099999999999@g.us';
    expect((await gw.request('GET', at(unknown))).status).toBe(404);
    expect((await put({ data: PNG.toString('base64'), mimetype: 'image/png' }, unknown)).status).toBe(404);
    expect((await gw.request('DELETE', at(unknown))).status).toBe(404);
    await memberActs(ALICE, { action: 'remove', numbers: [phone] });
    await waitFor(async () => (await gw.request('GET', at())).status === 404, 10_000);
    const gone = await put({ data: PNG.toString('base64'), mimetype: 'image/png' });
    expect([gone.status, gone.body.code]).toEqual([404, 'NOT_FOUND']);
  });
});
