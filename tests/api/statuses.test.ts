/**
 * Status updates on the test engine, in both deployment modes (the Baileys engine against the simulator:
 * tests/e2e/baileys-statuses.test.ts): contacts' posts stored once with their files and `status.received`, listed
 * newest first and by poster, gone when their poster deletes them or 24 hours after posting; the account's own
 * posts (text and media, to the recipients named) as the test network took them, and deleted for everyone; every
 * route's refusals (input, role, scope, unknown session, not ready). The 501s come from the capability table
 * (engine-capabilities.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { InboundStatus } from '#host/engines/engine-events.js';
import type { StatusView } from '#shared/domain/status-update.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import {
  expectError,
  expectValidation,
  linkedSession,
  recordEvents,
  UNKNOWN_ID,
} from './sessions-support.js';

const OWN = '15550007788';
const ALICE = '15550002222@c.us';
const BOB = '15550003333@c.us';
const DAY_S = 24 * 60 * 60;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('status updates', () => {
  let gw: TestGateway;
  let sessionId: string;
  let events: ReturnType<typeof recordEvents>;
  const base = () => `/api/sessions/${sessionId}/status`;
  const now = () => Math.floor(Date.now() / 1000);
  const posted = (
    statusId: string,
    over: Partial<InboundStatus & { kind: 'posted' }> = {},
  ): InboundStatus => ({
    kind: 'posted',
    statusId,
    contactId: ALICE,
    pushName: 'Alice',
    type: 'text',
    text: `status ${statusId}`,
    caption: null,
    backgroundColor: '#112233',
    font: 2,
    timestamp: now(),
    media: null,
    ...over,
  });
  const list = async (path = '') => {
    const res = await gw.request('GET', `${base()}${path}`);
    expect(res.status).toBe(200);
    return (res.body as { statuses: StatusView[] }).statuses;
  };
  const ids = async (path = '') => (await list(path)).map((s) => s.id);
  /** A file route's answer: its status, type and bytes. */
  const download = async (path: string) => {
    const res = await fetch(`${gw.url}${path}`, { headers: { 'x-api-key': gw.adminKey } });
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  };

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await linkedSession(gw, {}, { phone: OWN, pushName: 'Me' })).id;
    events = recordEvents(gw, sessionId);
  });
  afterAll(async () => {
    events?.stop();
    await gw?.close();
  });

  it('stores a contact’s status once, lists it with its poster, style and times, and publishes status.received', async () => {
    const timestamp = now() - 60;
    await gw.network.deliverStatus(sessionId, posted('ST-TEXT', { timestamp }));
    await gw.network.deliverStatus(sessionId, posted('ST-TEXT', { timestamp, text: 'again' }));
    const [status] = (await list()).filter((s) => s.id === 'ST-TEXT');
    expect(status).toEqual({
      id: 'ST-TEXT',
      contact: { id: ALICE, pushName: 'Alice', person: { phone: ALICE, lid: null } },
      fromMe: false,
      type: 'text',
      text: 'status ST-TEXT',
      backgroundColor: '#112233',
      font: 2,
      timestamp: new Date(timestamp * 1000).toISOString(),
      expiresAt: new Date((timestamp + DAY_S) * 1000).toISOString(),
    });
    await waitFor(() => events.names().includes('status.received'));
    const received = events.events.filter((e) => e.event === 'status.received');
    expect(received).toHaveLength(1);
    expect(received[0]?.data).toMatchObject({
      sessionId,
      statusId: 'ST-TEXT',
      contact: { id: ALICE, pushName: 'Alice' },
      type: 'text',
      hasMedia: false,
      mediaOmitted: false,
      postedAt: timestamp * 1000,
      expiresAt: (timestamp + DAY_S) * 1000,
    });
  });

  it('serves a status’s file, lists a contact’s statuses alone, and forgets one its poster deleted', async () => {
    const media = { mimetype: 'image/png', sizeBytes: PNG.byteLength };
    await gw.network.deliverStatus(
      sessionId,
      posted('ST-IMG', {
        contactId: BOB,
        type: 'image',
        text: null,
        caption: 'Look',
        media,
        mediaBytes: PNG,
      }),
    );
    const [image] = (await list()).filter((s) => s.id === 'ST-IMG');
    expect(image).toMatchObject({ type: 'image', caption: 'Look', mediaUrl: `${base()}/ST-IMG/media` });
    expect(await download(`${base()}/ST-IMG/media`)).toEqual({ status: 200, type: 'image/png', bytes: PNG });
    expect(await ids(`/${encodeURIComponent(BOB)}`)).toEqual(['ST-IMG']);
    expect(await ids('/15550004444@c.us')).toEqual([]);
    // Only its poster can take it back: another contact's deletion of the id changes nothing.
    await gw.network.deliverStatus(sessionId, { kind: 'deleted', statusId: 'ST-IMG', contactId: ALICE });
    expect(await ids()).toContain('ST-IMG');
    await gw.network.deliverStatus(sessionId, { kind: 'deleted', statusId: 'ST-IMG', contactId: BOB });
    expect(await ids()).not.toContain('ST-IMG');
    expectError(await gw.request('GET', `${base()}/ST-IMG/media`), 404, 'STATUS_MEDIA_NOT_FOUND');
  });

  it('shows a status until 24 hours after its posting and never after; one older on arrival is not kept', async () => {
    await gw.network.deliverStatus(sessionId, posted('ST-OLD', { timestamp: now() - DAY_S - 5 }));
    // Posted a day less two seconds ago: shown now, gone two seconds later.
    await gw.network.deliverStatus(sessionId, posted('ST-EXPIRING', { timestamp: now() - DAY_S + 2 }));
    expect(await ids()).toContain('ST-EXPIRING');
    expect(await ids()).not.toContain('ST-OLD');
    await waitFor(async () => !(await ids()).includes('ST-EXPIRING'), 5_000);
  });

  it('posts a text status to the recipients named, lists it as the account’s own and deletes it for everyone', async () => {
    const res = await gw.request('POST', `${base()}/send-text`, {
      body: { text: 'Out today', recipients: [ALICE, BOB], backgroundColor: '#00FF00', font: 1 },
    });
    expect(res.status).toBe(201);
    const { statusId, timestamp, expiresAt } = res.body as Record<string, string>;
    expect(Date.parse(expiresAt ?? '') - Date.parse(timestamp ?? '')).toBe(DAY_S * 1000);
    const taken = gw.network.statuses.posted.get(statusId ?? '');
    expect(taken).toMatchObject({
      sessionId,
      post: { type: 'text', text: 'Out today', backgroundColor: '#00FF00', font: 1 },
      recipients: [ALICE, BOB],
      revoked: false,
    });
    const [own] = (await list()).filter((s) => s.id === statusId);
    expect(own).toMatchObject({ fromMe: true, contact: { id: `${OWN}@c.us` }, text: 'Out today' });
    const deleted = await gw.request('DELETE', `${base()}/${statusId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Status deleted successfully' });
    expect(taken?.revoked).toBe(true);
    expect(await ids()).not.toContain(statusId);
    expectError(await gw.request('DELETE', `${base()}/${statusId}`), 404, 'STATUS_NOT_FOUND');
  });

  it('posts image, video and voice statuses with their files, serving the account’s own file back', async () => {
    for (const [kind, mimetype] of [
      ['image', 'image/png'],
      ['video', 'video/mp4'],
      ['voice', 'audio/ogg'],
    ] as const) {
      const res = await gw.request('POST', `${base()}/send-${kind}`, {
        body: { data: PNG.toString('base64'), mimetype, recipients: [ALICE] },
      });
      expect(res.status).toBe(201);
      const statusId = (res.body as { statusId: string }).statusId;
      const taken = gw.network.statuses.posted.get(statusId);
      expect(taken).toMatchObject({ post: { type: kind, file: { mimetype } }, bytes: PNG.byteLength });
      expect((await download(`${base()}/${statusId}/media`)).bytes).toEqual(PNG);
    }
  });

  it('refuses to delete a contact’s status for everyone', async () => {
    await gw.network.deliverStatus(sessionId, posted('ST-THEIRS'));
    expectError(await gw.request('DELETE', `${base()}/ST-THEIRS`), 400, 'STATUS_NOT_OWN');
    expect(await ids()).toContain('ST-THEIRS');
  });

  it.each([
    ['send-text', { text: 'hi' }, 'body.recipients'],
    ['send-text', { text: '   ', recipients: [ALICE] }, 'body.text'],
    ['send-text', { text: 'hi', recipients: [ALICE], backgroundColor: 'green' }, 'body.backgroundColor'],
    ['send-text', { text: 'hi', recipients: [ALICE], font: 3 }, 'body.font'],
    ['send-text', { text: 'hi', recipients: ['alice'] }, 'body.recipients.0'],
    ['send-image', { recipients: [ALICE] }, 'body.url'],
  ])('refuses POST …/status/%s with %j (400 at %s)', async (action, body, path) => {
    expectValidation(await gw.request('POST', `${base()}/${action}`, { body }), path);
  });

  it('answers 403 below the role or outside the key’s scope, 404 for an unknown session, 400 when not ready', async () => {
    const viewer = await gw.createKey({ name: 'status viewer', role: 'viewer' });
    const text = { text: 'hi', recipients: [ALICE] };
    expect((await gw.request('GET', base(), { key: viewer.key })).status).toBe(200);
    const refused = await gw.request('POST', `${base()}/send-text`, { key: viewer.key, body: text });
    expectError(refused, 403, 'FORBIDDEN_ROLE');
    const other = await gw.createSession();
    const scoped = await gw.createKey({ name: 'elsewhere', role: 'operator', allowedSessions: [other.id] });
    expectError(await gw.request('GET', base(), { key: scoped.key }), 403, 'FORBIDDEN_SESSION');
    expectError(
      await gw.request('DELETE', `${base()}/ST-TEXT`, { key: scoped.key }),
      403,
      'FORBIDDEN_SESSION',
    );
    expectError(await gw.request('GET', `/api/sessions/${UNKNOWN_ID}/status`), 404, 'NOT_FOUND');
    const notReady = await gw.request('POST', `/api/sessions/${other.id}/status/send-text`, { body: text });
    expectError(notReady, 400, 'SESSION_NOT_READY');
  });
});
