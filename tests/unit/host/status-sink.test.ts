/**
 * Contacts' status updates through the host's StatusSink and the read use cases, on a clock the test moves: a post
 * is shown from its arrival until 24 hours after its posting and never after (whatever the sweep has done), the
 * hourly sweep then removes it with its file, a post already expired on arrival is acknowledged and not kept, and a
 * file over the archive's cap is described as omitted.
 */
import { describe, expect, it } from '@jest/globals';
import type { InboundStatus } from '#host/engines/engine-events.js';
import { StatusSink } from '#host/statuses/status-sink.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import { STATUS_LIFETIME_MS } from '#shared/domain/status-update.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { sweepExpiredStatuses } from '#shared/use-cases/maintenance/sweep-expired-statuses.js';
import { lookUpPeople } from '#shared/use-cases/people/look-up-people.js';
import { getStatusMedia, listStatuses } from '#shared/use-cases/statuses/read-statuses.js';
import { aSession } from '#tests/helpers/builders.js';
import { recordingEvents } from '#tests/helpers/recording-events.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const ALICE = '15550002222@c.us';
const PAGE = { limit: 100, offset: 0 };
const ADMIN = { kind: 'key', role: 'admin', allowedSessions: null } as const;

async function setUp(maxBytes?: number) {
  const clock = new TestClock(Date.parse('2026-06-01T12:00:00.000Z'));
  const data = createMemoryDataStore();
  const media = new MemoryMediaStorage(maxBytes);
  const session = aSession({ status: 'ready' });
  await data.sessions.create(session);
  const { recorder, published } = recordingEvents();
  const sink = new StatusSink({
    statuses: data.statuses,
    media,
    events: recorder,
    people: (sessionId, ids) => lookUpPeople(data.identities, sessionId, ids),
    clock,
    logger: silentLogger,
  });
  const post = (statusId: string, over: Partial<Extract<InboundStatus, { kind: 'posted' }>> = {}) =>
    sink.received(session.id, {
      kind: 'posted',
      statusId,
      contactId: ALICE,
      pushName: 'Alice',
      type: 'image',
      text: null,
      caption: 'sunset',
      backgroundColor: null,
      font: null,
      timestamp: Math.floor(clock.now().getTime() / 1000),
      media: { mimetype: 'image/png', sizeBytes: 4 },
      mediaBytes: new Uint8Array([1, 2, 3, 4]),
      ...over,
    });
  const deps = { data, clock, media };
  const shown = async () =>
    (await listStatuses(deps, ADMIN as never, session.id, PAGE)).statuses.map((s) => s.id);
  return { clock, data, media, session, sink, post, deps, shown, published };
}

describe('status updates on a moving clock', () => {
  it('shows a post for 24 hours after its posting, then never; the sweep removes it and its file', async () => {
    const t = await setUp();
    await t.post('S1');
    const stored = await t.data.statuses.find(t.session.id, 'S1', t.clock.now().getTime());
    const path = stored?.mediaPath ?? '';
    expect(await t.media.stat(path)).toMatchObject({ size: 4 });
    const file = await getStatusMedia(t.deps, ADMIN as never, t.session.id, 'S1');
    expect(file).toMatchObject({ kind: 'file', contentType: 'image/png' });
    t.clock.advance(STATUS_LIFETIME_MS - 1);
    expect(await t.shown()).toEqual(['S1']);
    t.clock.advance(1);
    expect(await t.shown()).toEqual([]);
    await expect(getStatusMedia(t.deps, ADMIN as never, t.session.id, 'S1')).rejects.toMatchObject({
      status: 404,
      code: 'STATUS_MEDIA_NOT_FOUND',
    });
    expect(await sweepExpiredStatuses({ ...t.deps, statuses: t.data.statuses, logger: silentLogger })).toBe(
      1,
    );
    expect(await t.media.stat(path)).toBeNull();
    expect(await sweepExpiredStatuses({ ...t.deps, statuses: t.data.statuses, logger: silentLogger })).toBe(
      0,
    );
  });

  it('acknowledges a post that expired before it arrived without keeping it or publishing it', async () => {
    const t = await setUp();
    const dayAgo = Math.floor((t.clock.now().getTime() - STATUS_LIFETIME_MS) / 1000);
    await t.post('OLD', { timestamp: dayAgo });
    expect(await t.shown()).toEqual([]);
    expect(t.published.filter((e) => e.event === 'status.received')).toEqual([]);
  });

  it('describes a file over the archive’s cap as omitted, and publishes that', async () => {
    const t = await setUp(2);
    await t.post('BIG');
    const [status] = await t.data.statuses.list(
      { sessionId: t.session.id, now: t.clock.now().getTime() },
      PAGE,
    );
    expect(status).toMatchObject({ mediaPath: null, media: { omitted: 'too_large' } });
    const [event] = t.published.filter((e) => e.event === 'status.received');
    expect(event?.data).toMatchObject({ hasMedia: true, mediaOmitted: true, omitReason: 'too_large' });
  });
});
