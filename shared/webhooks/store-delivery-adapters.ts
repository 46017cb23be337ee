/**
 * The dispatcher's view of the data store: webhooks as delivery targets, and delivery failures as rows plus their
 * audit entries (`webhook_failed` per abandoned delivery; `webhook_triggered` per success, which the audit recorder
 * samples to one entry per webhook per minute).
 */
import { randomUUID } from 'node:crypto';
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { DeliveryFailureStore } from '#shared/ports/delivery-failure-store.port.js';
import type { WebhookStore } from '#shared/ports/webhook-store.port.js';
import type { DeliveryFailureRecord, DeliveryFailures, DeliveryTargets } from './delivery-attempts.js';

/** `lastTriggeredAt` is written at most this often per webhook: a write per delivery costs more than the POST. */
export const TRIGGERED_WRITE_INTERVAL_MS = 1000;

export function storeDeliveryTargets(webhooks: WebhookStore, audit: AuditRecorder): DeliveryTargets {
  /** When each webhook's `lastTriggeredAt` was last written by this process (epoch ms of the delivery). */
  const written = new Map<string, number>();
  return {
    active: (sessionId) => webhooks.listActive(sessionId),
    current: (sessionId, webhookId) => webhooks.findById(sessionId, webhookId),
    triggered: async (target, at) => {
      const last = written.get(target.id);
      if (last === undefined || at.getTime() - last >= TRIGGERED_WRITE_INTERVAL_MS) {
        // Deleted webhooks leave their entry: bounded all the same.
        if (written.size >= 10_000) written.clear();
        written.set(target.id, at.getTime());
        await webhooks.touchTriggered(target.sessionId, target.id, at);
      }
      void audit.record(SYSTEM_CALLER, {
        action: 'webhook_triggered',
        sessionId: target.sessionId,
        metadata: { webhookId: target.id },
      });
    },
  };
}

export function storeDeliveryFailures(
  failures: DeliveryFailureStore,
  audit: AuditRecorder,
  clock: Clock,
): DeliveryFailures {
  return {
    record: async (failure: DeliveryFailureRecord) => {
      await failures.insert({ id: randomUUID(), createdAt: clock.now().toISOString(), ...failure });
      await audit.record(SYSTEM_CALLER, {
        action: 'webhook_failed',
        severity: 'warn',
        sessionId: failure.sessionId,
        metadata: {
          webhookId: failure.webhookId,
          event: failure.event,
          idempotencyKey: failure.idempotencyKey,
          attempts: failure.attempts,
          lastStatusCode: failure.lastStatusCode,
        },
        errorMessage: failure.lastError,
      });
    },
    clear: async (idempotencyKey) => {
      await failures.deleteByIdempotencyKey(idempotencyKey);
    },
  };
}
