/** The webhook variables: defaults, the spec's limit fallback, retention that 0 turns off, and the SSRF allow-list. */
import { describe, expect, it } from '@jest/globals';
import { loadEnv } from '#shared/config/env.js';

describe('webhook configuration', () => {
  it('has the spec defaults', () => {
    expect(loadEnv({})).toMatchObject({
      QUEUE_ENABLED: false,
      WEBHOOK_TIMEOUT: 10_000,
      WEBHOOK_RETRY_DELAY: 5_000,
      WEBHOOK_MAX_PAYLOAD_BYTES: 1_048_576,
      WEBHOOK_DISPATCH_CONCURRENCY: 16,
      WEBHOOK_DISPATCH_MAX_QUEUED: 1_000,
      WEBHOOK_MAX_PER_SESSION: 16,
      WEBHOOK_FAILURE_RETENTION_DAYS: 90,
      SSRF_ALLOWED_HOSTS: [],
      AUTOMATION_MAX_PER_SESSION: 32,
      TEMPLATE_MAX_PER_SESSION: 100,
    });
  });

  it('reads what is set; a non-positive or non-numeric limit means the default; retention 0 keeps all', () => {
    const env = loadEnv({
      QUEUE_ENABLED: 'true',
      WEBHOOK_TIMEOUT: '2500',
      WEBHOOK_RETRY_DELAY: '-1',
      WEBHOOK_DISPATCH_CONCURRENCY: 'many',
      WEBHOOK_FAILURE_RETENTION_DAYS: '0',
      SSRF_ALLOWED_HOSTS: 'receiver.internal, 10.0.0.7',
    });
    expect(env).toMatchObject({
      QUEUE_ENABLED: true,
      WEBHOOK_TIMEOUT: 2500,
      WEBHOOK_RETRY_DELAY: 5000,
      WEBHOOK_DISPATCH_CONCURRENCY: 16,
      WEBHOOK_FAILURE_RETENTION_DAYS: null,
      SSRF_ALLOWED_HOSTS: ['receiver.internal', '10.0.0.7'],
    });
  });

  it('refuses a QUEUE_ENABLED that is not a boolean, naming it', () => {
    expect(() => loadEnv({ QUEUE_ENABLED: 'sometimes' })).toThrow(/QUEUE_ENABLED/);
  });
});
