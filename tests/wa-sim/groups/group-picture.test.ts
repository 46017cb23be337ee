/**
 * A group's picture as real Baileys clients see it: none at first (404), set by a member (the JPEG Baileys made,
 * served at the URL a get answers, the members told with a `picture` notification that Baileys reports as
 * `contacts.update` and a `GROUP_CHANGE_ICON` stub naming the author), refused to a plain member once the group is
 * locked (401) and to a non-member (403), removed again, and set by a simulated member through the admin API.
 */
import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import { type WAMessage, WAMessageStubType, type WASocket } from '@whiskeysockets/baileys';
import { renderPicture } from '#tests/wa-sim/accounts/profile-picture.js';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { waitForEvent } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

let sim: TestSim;
let owner: LinkedClient;
let member: LinkedClient;
let outsider: LinkedClient;
let group: string;
const OWNER = '15550007201';
const MEMBER = '15550007202';
const OUTSIDER = '15550007203';
const ALICE = '15550007211';
const jid = (number: string): string => `${number}@s.whatsapp.net`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface PictureView {
  id: string;
  sha256: string;
  size: number;
  mimetype: string;
  author: string;
}

async function pictureAtSim(): Promise<PictureView | null> {
  return (await sim.admin.get<{ picture: PictureView | null }>(`/groups/${group}`)).body.picture;
}

/** The next `contacts.update` of the group's picture that `sock` hears. */
function nextPictureUpdate(sock: WASocket) {
  return waitForEvent(sock, 'contacts.update', (updates) => updates.find((update) => update.id === group));
}

/** The next `GROUP_CHANGE_ICON` stub of the group that `sock` hears. */
function nextIconStub(sock: WASocket) {
  return waitForEvent(sock, 'messages.upsert', ({ messages }) =>
    messages.find(
      (message: WAMessage) =>
        message.key.remoteJid === group && message.messageStubType === WAMessageStubType.GROUP_CHANGE_ICON,
    ),
  );
}

/** The bytes at the URL a get of the group's picture answers to `sock`. */
async function fetchPicture(sock: WASocket): Promise<Uint8Array> {
  const url = await sock.profilePictureUrl(group, 'image');
  const response = await fetch(url ?? '');
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

beforeAll(async () => {
  sim = await startTestSim();
  owner = await linkByQr(sim, { phone: OWNER });
  member = await linkByQr(sim, { phone: MEMBER });
  outsider = await linkByQr(sim, { phone: OUTSIDER });
  await sim.admin.ok('/contacts', { number: ALICE, name: 'Alice' });
  group = (await owner.sock.groupCreate('Pictures', [jid(MEMBER), jid(ALICE)])).id;
});

afterAll(async () => {
  for (const client of [owner, member, outsider]) await closeClient(client.sock);
  await sim.stop();
});

it('starts without a picture: a get is 404 item-not-found', async () => {
  await expect(owner.sock.profilePictureUrl(group, 'image')).rejects.toMatchObject({ data: 404 });
  expect(await pictureAtSim()).toBeNull();
});

it('takes a member’s picture, serves it at the URL a get answers and tells every member who set it', async () => {
  const heard = nextPictureUpdate(owner.sock);
  const stub = nextIconStub(owner.sock);
  await member.sock.updateProfilePicture(group, renderPicture('first'));
  expect(await heard).toMatchObject({ id: group, imgUrl: 'changed' });
  const picture = await pictureAtSim();
  expect(picture).toMatchObject({ author: MEMBER, mimetype: 'image/jpeg', size: expect.any(Number) });
  expect((await stub).participant).toBe(jid(MEMBER));
  expect((await stub).messageStubParameters).toEqual([picture?.id]);
  // Baileys sends the JPEG it made with sharp: what the members fetch is those bytes.
  const fetched = await fetchPicture(owner.sock);
  expect(sha256(fetched)).toBe(picture?.sha256);
  expect([...fetched.subarray(0, 2)]).toEqual([0xff, 0xd8]);
});

it('answers 404 item-not-found for a group nobody has, to a get, a set and a removal', async () => {
  const unknown = '120363099999999999@g.us';
  await expect(owner.sock.profilePictureUrl(unknown, 'image')).rejects.toMatchObject({ data: 404 });
  await expect(owner.sock.updateProfilePicture(unknown, renderPicture('x'))).rejects.toMatchObject({
    data: 404,
  });
  await expect(owner.sock.removeProfilePicture(unknown)).rejects.toMatchObject({ data: 404 });
});

it('refuses a non-member a get and a set (403 forbidden)', async () => {
  await expect(outsider.sock.profilePictureUrl(group, 'image')).rejects.toMatchObject({ data: 403 });
  await expect(outsider.sock.updateProfilePicture(group, renderPicture('x'))).rejects.toMatchObject({
    data: 403,
  });
  await expect(outsider.sock.removeProfilePicture(group)).rejects.toMatchObject({ data: 403 });
  expect((await pictureAtSim())?.author).toBe(MEMBER);
});

it('leaves the picture to admins once the group is locked (401 not-authorized to a plain member)', async () => {
  await owner.sock.groupSettingUpdate(group, 'locked');
  const before = await pictureAtSim();
  await expect(member.sock.updateProfilePicture(group, renderPicture('second'))).rejects.toMatchObject({
    data: 401,
    message: 'not-authorized',
  });
  await expect(member.sock.removeProfilePicture(group)).rejects.toMatchObject({ data: 401 });
  expect(await pictureAtSim()).toEqual(before);
  await owner.sock.updateProfilePicture(group, renderPicture('by the owner'));
  const after = await pictureAtSim();
  expect(after).toMatchObject({ author: OWNER });
  expect(after?.id).not.toBe(before?.id);
  await owner.sock.groupSettingUpdate(group, 'unlocked');
});

it('removes the picture: the members hear it, a get is 404 again and the old file is gone', async () => {
  const { id } = (await pictureAtSim()) ?? { id: '' };
  const heard = nextPictureUpdate(member.sock);
  const stub = nextIconStub(member.sock);
  await owner.sock.removeProfilePicture(group);
  expect(await heard).toMatchObject({ id: group, imgUrl: 'removed' });
  expect((await stub).participant).toBe(jid(OWNER));
  expect(await pictureAtSim()).toBeNull();
  await expect(member.sock.profilePictureUrl(group, 'image')).rejects.toMatchObject({ data: 404 });
  const base = new URL(sim.running.adminUrl).origin;
  expect((await fetch(`${base}/media/group-picture/${group.replace('@g.us', '')}/${id}`)).status).toBe(404);
});

it('lets a simulated member set and remove the picture through the admin API, as the clients hear', async () => {
  const heard = nextPictureUpdate(owner.sock);
  const stub = nextIconStub(owner.sock);
  await sim.admin.ok(`/groups/${group}/actions`, { by: ALICE, action: 'picture' });
  expect(await heard).toMatchObject({ imgUrl: 'changed' });
  expect((await stub).participant).toBe(jid(ALICE));
  const picture = await pictureAtSim();
  expect(picture).toMatchObject({ author: ALICE, mimetype: 'image/png' });
  expect(sha256(await fetchPicture(member.sock))).toBe(picture?.sha256);
  const removed = nextPictureUpdate(member.sock);
  await sim.admin.ok(`/groups/${group}/actions`, { by: ALICE, action: 'removePicture' });
  expect(await removed).toMatchObject({ imgUrl: 'removed' });
  expect(await pictureAtSim()).toBeNull();
  const refused = await sim.admin.post(`/groups/${group}/actions`, { by: OUTSIDER, action: 'picture' });
  expect(refused.status).toBe(403);
});
