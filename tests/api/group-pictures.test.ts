/**
 * A group's picture on the test engine (the Baileys engine against the simulator: tests/e2e/baileys-group-pictures
 * .test.ts): none at first, set from base64 or from a URL the host fetches through the SSRF guard (the engine gets
 * the bytes: its picture's URL names their SHA-256 and type), the fetch's and the type's refusals, removal, the
 * group.update events, any member's until the group is locked (then 403 for a non-admin), 404 for a group the
 * account is not in. Both modes.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FileServer, startFileServer } from '#tests/helpers/file-server.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { expectError, expectValidation, linkedSession } from './sessions-support.js';
import { createWebhook, type Receiver, startReceiver } from './webhooks-support.js';

const ME = '15550001111@c.us';
const ALICE = '15550002222@c.us';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** The test engine's URL of a picture of `bytes` as `type`. */
const pictureUrl = (bytes: Uint8Array, type: string) =>
  `https://pictures.example/groups/${digest(bytes)}?type=${encodeURIComponent(type)}`;

describe('group pictures', () => {
  let gw: TestGateway;
  let files: FileServer;
  let receiver: Receiver;
  let sessionId: string;
  let groupId: string;
  const at = (id = groupId) => `/api/sessions/${sessionId}/groups/${encodeURIComponent(id)}/picture`;
  const put = (body: unknown, id = groupId) => gw.request('PUT', at(id), { body });
  const pictureOf = async (id = groupId) => (await gw.request('GET', at(id))).body as { url: string | null };
  const updates = () =>
    receiver.received
      .map((request) => JSON.parse(request.body) as { event: string; data: Record<string, unknown> })
      .filter((payload) => payload.event === 'group.update' && payload.data.groupId === groupId)
      .map((payload) => payload.data.changes);

  beforeAll(async () => {
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: '127.0.0.1' });
    files = await startFileServer({
      '/team.jpg': { type: 'image/jpeg', body: JPEG },
      '/notes.txt': { type: 'text/plain', body: Buffer.from('not a picture') },
      '/moved': { redirect: '/team.jpg' },
    });
    receiver = await startReceiver();
    gw.network.directory.register(ALICE.slice(0, 11));
    sessionId = (await linkedSession(gw)).id;
    await createWebhook(gw, sessionId, { url: receiver.url, events: ['group.update'] });
    groupId = gw.network.groups.create(ME, 'Team', [ALICE]).id;
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await files?.close();
    await gw?.close();
  });

  it('has none at first, then the picture given in base64 or by a URL the host fetched', async () => {
    expect(await pictureOf()).toEqual({ url: null });
    const set = await put({ data: PNG.toString('base64'), mimetype: 'image/png' });
    expect([set.status, set.body]).toEqual([200, { success: true, message: 'Group picture updated' }]);
    expect(await pictureOf()).toEqual({ url: pictureUrl(PNG, 'image/png') });
    // A photo-sized picture (1 MiB) in base64 travels to the owning host in the aws mode too.
    const photo = Buffer.concat([PNG, Buffer.alloc(1024 * 1024, 7)]);
    expect((await put({ data: photo.toString('base64'), mimetype: 'image/png' })).status).toBe(200);
    expect(await pictureOf()).toEqual({ url: pictureUrl(photo, 'image/png') });
    expect((await put({ url: `${files.base}/team.jpg` })).status).toBe(200);
    expect(await pictureOf()).toEqual({ url: pictureUrl(JPEG, 'image/jpeg') });
  });

  it('refuses a fetch that fails, a type no image has, and a body without exactly one source', async () => {
    expectError(await put({ url: `${files.base}/moved` }), 400, 'MEDIA_FETCH_FAILED');
    expectError(await put({ url: `${files.base}/notes.txt` }), 400, 'MEDIA_TYPE_NOT_ALLOWED');
    expectError(
      await put({ data: PNG.toString('base64'), mimetype: 'text/plain' }),
      400,
      'MEDIA_TYPE_NOT_ALLOWED',
    );
    expectError(await put({ url: 'http://10.0.0.1/x.jpg' }), 400, 'URL_NOT_ALLOWED');
    const refusal = async (body: unknown) => expectError(await put(body), 400, 'VALIDATION_FAILED').details;
    const both = { url: `${files.base}/team.jpg`, data: 'AAAA', mimetype: 'image/png' };
    expect(await refusal(both)).toEqual([{ path: 'body', message: 'give exactly one of url and data' }]);
    expect(await refusal({})).toEqual([{ path: 'body', message: 'give exactly one of url and data' }]);
    expect(await refusal({ data: 'AAAA' })).toEqual([{ path: 'body', message: 'data needs its mimetype' }]);
    expectValidation(await put({ data: 'not base64!', mimetype: 'image/png' }), 'body.data');
    expect(await pictureOf()).toEqual({ url: pictureUrl(JPEG, 'image/jpeg') });
  });

  it('removes it, and tells each change as a group.update', async () => {
    const removed = await gw.request('DELETE', at());
    expect([removed.status, removed.body]).toEqual([
      200,
      { success: true, message: 'Group picture removed' },
    ]);
    expect(await pictureOf()).toEqual({ url: null });
    const told = await waitFor(() => (updates().length >= 4 ? updates() : undefined));
    expect(told).toEqual([
      { picture: 'set' },
      { picture: 'set' },
      { picture: 'set' },
      { picture: 'removed' },
    ]);
  });

  it('is any member’s to change until the group is locked, then 403 for a non-admin', async () => {
    const open = gw.network.groups.create(ALICE, 'Open', [ME]);
    expect((await put({ data: PNG.toString('base64'), mimetype: 'image/png' }, open.id)).status).toBe(200);
    expect(await pictureOf(open.id)).toEqual({ url: pictureUrl(PNG, 'image/png') });
    open.settings.locked = true;
    const refused = await put({ url: `${files.base}/team.jpg` }, open.id);
    expectError(refused, 403, 'GROUP_ADMIN_REQUIRED');
    expectError(await gw.request('DELETE', at(open.id)), 403, 'GROUP_ADMIN_REQUIRED');
    expect(await pictureOf(open.id)).toEqual({ url: pictureUrl(PNG, 'image/png') });
  });

  it('answers 404 for a group the account is not in', async () => {
    const other = gw.network.groups.create(ALICE, 'Not mine', []).id;
    expectError(await gw.request('GET', at(other)), 404, 'NOT_FOUND');
    expectError(await put({ data: PNG.toString('base64'), mimetype: 'image/png' }, other), 404, 'NOT_FOUND');
    expectError(await gw.request('DELETE', at(other)), 404, 'NOT_FOUND');
  });
});
