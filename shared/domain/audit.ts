/** Audit log: the exact action names of the spec, entries, and the list query. */
import { z } from 'zod';
import { IsoTimestamp } from './common.js';

export const AUDIT_ACTIONS = [
  'api_key_created',
  'api_key_updated',
  'api_key_used',
  'api_key_revoked',
  'api_key_deleted',
  'api_key_auth_failed',
  'rate_limit_exceeded',
  'queue_board_mutated',
  'session_created',
  'session_started',
  'session_stopped',
  'session_force_killed',
  'session_logged_out',
  'session_deleted',
  'session_qr_generated',
  'session_connected',
  'session_disconnected',
  'session_restricted',
  'session_restriction_lifted',
  'message_sent',
  'message_failed',
  'send_pacing_blocked',
  'send_breaker_tripped',
  'webhook_created',
  'webhook_deleted',
  'webhook_triggered',
  'webhook_failed',
  'integration_instance_created',
  'integration_instance_updated',
  'integration_instance_secret_regenerated',
  'integration_instance_deleted',
  'integration_instance_redriven',
  'infra_config_saved',
  'infra_restart_requested',
  'infra_data_exported',
  'infra_data_imported',
  'infra_storage_exported',
  'infra_storage_imported',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/**
 * Security-relevant actions: who may do what, and what runs under which account. The use case that records one
 * awaits it, so the row is stored before the response goes out; the recorder also evicts these last when its retry
 * buffer is full. Everything else (api_key_used, rate_limit_exceeded, session_qr_generated, the host's connection
 * events…) is high-volume or informational and is written in the background.
 */
export const SECURITY_AUDIT_ACTIONS = [
  'api_key_created',
  'api_key_updated',
  'api_key_revoked',
  'api_key_deleted',
  'api_key_auth_failed',
  'queue_board_mutated',
  'session_created',
  'session_started',
  'session_stopped',
  'session_force_killed',
  'session_logged_out',
  'session_deleted',
  'webhook_created',
  'webhook_deleted',
  'integration_instance_created',
  'integration_instance_updated',
  'integration_instance_secret_regenerated',
  'integration_instance_deleted',
  'infra_config_saved',
  'infra_restart_requested',
  'infra_data_exported',
  'infra_data_imported',
  'infra_storage_exported',
  'infra_storage_imported',
] as const satisfies readonly AuditAction[];
export type SecurityAuditAction = (typeof SECURITY_AUDIT_ACTIONS)[number];

const SECURITY_ACTIONS: ReadonlySet<AuditAction> = new Set(SECURITY_AUDIT_ACTIONS);

/** True for an action the use case must have stored before it answers. */
export const isSecurityAuditAction = (action: AuditAction): action is SecurityAuditAction =>
  SECURITY_ACTIONS.has(action);

export const AuditSeverity = z.enum(['info', 'warn', 'error']);
export type AuditSeverity = z.infer<typeof AuditSeverity>;

export const AuditEntry = z
  .object({
    id: z.string(),
    action: AuditAction,
    severity: AuditSeverity,
    apiKeyId: z.string().max(36).nullable(),
    apiKeyName: z.string().max(100).nullable(),
    sessionId: z.string().max(36).nullable(),
    sessionName: z.string().max(100).nullable(),
    ipAddress: z.string().max(45).nullable(),
    userAgent: z.string().max(500).nullable(),
    method: z.string().max(10).nullable(),
    path: z.string().max(500).nullable(),
    statusCode: z.number().int().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    errorMessage: z.string().nullable(),
    createdAt: IsoTimestamp,
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

/** What a writer supplies; id and createdAt are stamped by the recorder. */
export type NewAuditEntry = Partial<Omit<AuditEntry, 'id' | 'createdAt' | 'action'>> & {
  action: AuditAction;
};

export const MAX_AUDIT_PAGE = 200;

export const AuditQuery = z.strictObject({
  action: AuditAction.optional(),
  severity: AuditSeverity.optional(),
  sessionId: z.string().max(36).optional(),
  apiKeyId: z.string().max(36).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditPage = z
  .object({ data: z.array(AuditEntry), total: z.number().int() })
  .meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof AuditPage>;
