/**
 * Status updates end to end: the real Baileys client inside the gateway and simulated contacts. A contact's text,
 * image and voice statuses (status@broadcast under its sender key) reach the API with their style and file and as
 * `status.received`; its delete takes one away. The account's statuses posted through the API are read by exactly
 * the contacts named (their phones decrypt them, files included) and deleted for them through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { StatusView } from '#shared/domain/status-update.js';
import { expectError } from '#tests/api/sessions-support.js';
import { createWebhook, type Receiver, startReceiver } from '#tests/api/webhooks-support.js';
import { phoneSequence } from '#tests/helpers/link-session.js';
import { waitFor } from '#tests/helpers/test-gateway.js';
import { type SimulatedSession, startSimulatedSession } from './sim-session.js';

const nextPhone = phoneSequence('1560');
const base = `1560${String(process.pid % 1000).padStart(3, '0')}`;
const [ALICE, BOB, CAROL] = [`${base}7000`, `${base}7001`, `${base}7002`];
// A tiny PNG: what the simulated phones open and hash.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A webhook delivery's body, as far as these tests read it. */
interface Delivered {
  event: string;
  data?: { statusId?: string };
}

describe('status updates with the Baileys engine against the simulator', () => {
  let linked: SimulatedSession;
  let receiver: Receiver;
  const path = () => `/api/sessions/${linked.sessionId}/status`;
  const list = async () =>
    ((await linked.gw.request('GET', path())).body as { statuses: StatusView[] }).statuses;
  const shown = async (id: string) => (await list()).find((s) => s.id === id);
  const contactPosts = async (number: string, body: Record<string, unknown>) =>
    (await linked.sim.admin.ok<{ id: string }>(`/contacts/${number}/status`, { to: [linked.phone], ...body }))
      .id;

  beforeAll(async () => {
    linked = await startSimulatedSession(nextPhone(), [ALICE, BOB, CAROL], {
      SSRF_ALLOWED_HOSTS: '127.0.0.1',
    });
    receiver = await startReceiver();
    await createWebhook(linked.gw, linked.sessionId, { url: receiver.url, events: ['status.received'] });
  }, 30_000);
  afterAll(async () => {
    await receiver?.close();
    await linked?.gw.close();
    await linked?.sim.stop();
  });

  it('a contact’s text status arrives with its colour and typeface, as status.received', async () => {
    const id = await contactPosts(ALICE, {
      type: 'text',
      text: 'out for lunch',
      backgroundColor: '#112233',
      font: 2,
    });
    const status = await waitFor(() => shown(id), 15_000);
    expect(status).toMatchObject({
      contact: { id: `${ALICE}@c.us` },
      fromMe: false,
      type: 'text',
      text: 'out for lunch',
      backgroundColor: '#112233',
      font: 2,
    });
    const delivery = await waitFor(
      () =>
        receiver.received.map((r) => JSON.parse(r.body) as Delivered).find((d) => d.data?.statusId === id),
      15_000,
    );
    expect(delivery).toMatchObject({ event: 'status.received', data: { type: 'text', hasMedia: false } });
  });

  it('a contact’s image and voice statuses arrive with their files; its delete takes one away', async () => {
    const image = await contactPosts(BOB, { type: 'image', data: PNG.toString('base64'), caption: 'sunset' });
    const voice = await contactPosts(BOB, { type: 'voice', data: PNG.toString('base64'), seconds: 3 });
    await waitFor(async () => (await shown(image)) && (await shown(voice)), 15_000);
    expect(await shown(image)).toMatchObject({
      type: 'image',
      caption: 'sunset',
      media: { mimetype: 'image/jpeg' },
    });
    expect(await shown(voice)).toMatchObject({ type: 'voice' });
    const file = await fetch(`${linked.gw.url}${path()}/${image}/media`, {
      headers: { 'x-api-key': linked.gw.adminKey },
    });
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
    await linked.sim.admin.ok(`/contacts/${BOB}/status/${image}/revoke`, { to: [linked.phone] });
    await waitFor(async () => (await shown(image)) === undefined, 15_000);
    expect(await shown(voice)).toBeDefined();
  });

  it('a text status posted through the API reaches exactly the contacts named, and its delete reaches them', async () => {
    const res = await linked.gw.request('POST', `${path()}/send-text`, {
      body: {
        text: 'new menu today',
        recipients: [`${ALICE}@c.us`, `${BOB}@c.us`],
        backgroundColor: '#00AA00',
        font: 1,
      },
    });
    expect(res.status).toBe(201);
    const { statusId } = res.body as { statusId: string };
    const seen = (number: string) =>
      linked.sim.admin.statuses(number).then((all) => all.find((s) => s.id === statusId));
    for (const number of [ALICE, BOB]) {
      expect(await waitFor(() => seen(number), 15_000)).toMatchObject({
        from: linked.phone,
        type: 'text',
        text: 'new menu today',
        backgroundColor: '#00AA00',
        deleted: false,
      });
    }
    expect(await seen(CAROL)).toBeUndefined();
    expect(await shown(statusId)).toMatchObject({ fromMe: true, text: 'new menu today' });
    expect((await linked.gw.request('DELETE', `${path()}/${statusId}`)).status).toBe(200);
    for (const number of [ALICE, BOB])
      await waitFor(async () => (await seen(number))?.deleted === true, 15_000);
    expect(await shown(statusId)).toBeUndefined();
    expectError(await linked.gw.request('DELETE', `${path()}/${statusId}`), 404, 'STATUS_NOT_FOUND');
  });

  it('an image status posted through the API opens at the contact with the bytes sent', async () => {
    const res = await linked.gw.request('POST', `${path()}/send-image`, {
      body: {
        data: PNG.toString('base64'),
        mimetype: 'image/png',
        caption: 'our shop',
        recipients: [`${CAROL}@c.us`],
      },
    });
    expect(res.status).toBe(201);
    const { statusId } = res.body as { statusId: string };
    const seen = await waitFor(
      () => linked.sim.admin.statuses(CAROL).then((all) => all.find((s) => s.id === statusId)),
      15_000,
    );
    expect(seen).toMatchObject({
      type: 'image',
      caption: 'our shop',
      media: { mimetype: 'image/png', size: PNG.byteLength },
    });
  });
});
