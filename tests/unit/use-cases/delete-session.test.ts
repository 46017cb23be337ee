/**
 * Deleting a session removes what belongs to it in stores without a cascade (DynamoDB, and the memory fakes that
 * behave like it): its messages, webhooks, automation rules, templates, send idempotency keys, send pacing state,
 * chats, message batches and archived media, and nothing of another session.
 */
import { describe, expect, it } from '@jest/globals';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { createMemoryDataStore, MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import { createMetrics } from '#shared/observability/metrics.js';
import type { HostGateway } from '#shared/ports/host-gateway.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { deleteSession } from '#shared/use-cases/sessions/delete-session.js';
import {
  aBatch,
  aMessage,
  anAutomationRule,
  aSession,
  aTemplate,
  aWebhook,
} from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const NO_CAP = { maxPerSession: 0 };

describe('deleteSession', () => {
  it("deletes the session's messages, webhooks, rules, templates, send keys, pacing, chats, batches and media with it, leaving other sessions'", async () => {
    const data = createMemoryDataStore();
    const media = new MemoryMediaStorage();
    const paths = new Map<string, string>();
    const clock = new TestClock();
    const discarded: string[] = [];
    const host = {
      call: async (_operation: string, input: { sessionId: string }) => {
        discarded.push(input.sessionId);
        return null;
      },
    } as unknown as HostGateway;
    const audit = new AuditRecorder(new MemoryAuditLogStore(), clock, silentLogger, createMetrics());
    const [gone, kept] = [aSession(), aSession()];
    for (const session of [gone, kept]) {
      await data.sessions.create(session);
      await data.messages.insert(aMessage({ sessionId: session.id }));
      const stored = await media.put({
        sessionId: session.id,
        messageId: 'IMG-1',
        mimetype: 'image/jpeg',
        data: new Uint8Array([1, 2, 3]),
      });
      paths.set(session.id, stored.path);
      await data.webhooks.create(aWebhook({ sessionId: session.id }), NO_CAP);
      await data.automationRules.create(anAutomationRule({ sessionId: session.id }), NO_CAP);
      await data.templates.create(aTemplate({ sessionId: session.id }), NO_CAP);
      await data.sendIdempotency.claim(
        { sessionId: session.id, key: 'k', requestHash: 'h', messageId: 'm' },
        clock.now(),
      );
      await data.sendPacing.recordFailure(session.id, { threshold: 5, cooldownMs: 1000, now: 0 });
      await data.batches.create(aBatch({ sessionId: session.id, batchId: 'b' }));
      await data.chats.apply(session.id, [{ id: '15550001111@c.us', unread: { add: 1 } }]);
    }

    await deleteSession({ data, media, host, audit, clock }, SYSTEM_CALLER, gone.id);

    expect(discarded).toEqual([gone.id]);
    expect(await data.sessions.findById(gone.id)).toBeNull();
    expect((await data.messages.list({ sessionId: gone.id }, { limit: 10, offset: 0 })).total).toBe(0);
    expect(await data.webhooks.listBySession(gone.id)).toEqual([]);
    expect(await data.automationRules.listBySession(gone.id)).toEqual([]);
    expect(await data.templates.listBySession(gone.id)).toEqual([]);
    expect((await data.messages.list({ sessionId: kept.id }, { limit: 10, offset: 0 })).total).toBe(1);
    expect(await data.webhooks.listBySession(kept.id)).toHaveLength(1);
    expect(await data.automationRules.listBySession(kept.id)).toHaveLength(1);
    expect(await data.templates.listBySession(kept.id)).toHaveLength(1);
    expect(await data.sendIdempotency.deleteBySession(gone.id)).toBe(0);
    expect(await data.sendIdempotency.deleteBySession(kept.id)).toBe(1);
    expect(await data.sendPacing.deleteBySession(gone.id)).toBe(0);
    expect(await data.sendPacing.deleteBySession(kept.id)).toBe(1);
    expect(await media.stat(paths.get(gone.id) ?? '')).toBeNull();
    expect(await media.stat(paths.get(kept.id) ?? '')).toMatchObject({ size: 3, mimetype: 'image/jpeg' });
    expect(await data.batches.find(gone.id, 'b')).toBeNull();
    expect(await data.batches.listUnfinished(kept.id)).toHaveLength(1);
    expect(await data.chats.list(gone.id, { limit: 10, offset: 0 })).toEqual([]);
    expect(await data.chats.list(kept.id, { limit: 10, offset: 0 })).toHaveLength(1);
  });
});
