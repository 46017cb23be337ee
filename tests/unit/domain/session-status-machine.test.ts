import { describe, expect, it } from '@jest/globals';
import { SESSION_STATUSES, type SessionStatus } from '#shared/domain/session.js';
import { nextStatus, type SessionTrigger } from '#shared/domain/session-status-machine.js';

// The spec's table (States and transitions), plus the moves the gateway needs where the spec says "not shown".
const ALLOWED: [SessionStatus, SessionTrigger, SessionStatus][] = [
  ['created', 'start', 'initializing'],
  ['disconnected', 'start', 'initializing'],
  ['failed', 'start', 'initializing'],
  ['initializing', 'qr_generated', 'qr_ready'],
  ['qr_ready', 'qr_generated', 'qr_ready'],
  ['qr_ready', 'credentials_presented', 'authenticating'],
  ['initializing', 'credentials_presented', 'authenticating'],
  ['authenticating', 'auth_succeeded', 'ready'],
  ['initializing', 'auth_succeeded', 'ready'],
  ['authenticating', 'auth_failed', 'failed'],
  ['ready', 'connection_lost', 'disconnected'],
  ['qr_ready', 'connection_lost', 'disconnected'],
  ['ready', 'action_required', 'action_required'],
  ['action_required', 'action_resolved', 'ready'],
  ['action_required', 'stop', 'disconnected'],
  ['action_required', 'logout', 'disconnected'],
  ['action_required', 'resume', 'initializing'],
  ['ready', 'resume', 'initializing'],
  ['disconnected', 'reconnect', 'initializing'],
  ['disconnected', 'reconnect_exhausted', 'failed'],
  ['ready', 'stop', 'disconnected'],
  ['ready', 'logout', 'disconnected'],
  ['ready', 'force_kill', 'disconnected'],
  ['disconnected', 'stop', 'disconnected'],
  ['initializing', 'engine_failed', 'failed'],
];

const REFUSED: [SessionStatus, SessionTrigger][] = [
  ['created', 'qr_generated'],
  ['created', 'stop'],
  ['created', 'resume'],
  ['ready', 'start'],
  ['initializing', 'start'],
  ['qr_ready', 'start'],
  ['action_required', 'start'],
  ['ready', 'auth_succeeded'],
  ['ready', 'qr_generated'],
  ['failed', 'reconnect'],
  ['ready', 'reconnect'],
  ['qr_ready', 'action_required'],
  ['disconnected', 'connection_lost'],
  ['failed', 'stop'],
];

describe('nextStatus', () => {
  it.each(ALLOWED)('moves %s on %s to %s', (from, trigger, to) => {
    expect(nextStatus(from, trigger)).toBe(to);
  });

  it.each(REFUSED)('refuses %s on %s', (from, trigger) => {
    expect(nextStatus(from, trigger)).toBeNull();
  });

  it('lets only created, disconnected and failed sessions start', () => {
    const startable = SESSION_STATUSES.filter((status) => nextStatus(status, 'start') !== null);
    expect(startable.sort()).toEqual(['created', 'disconnected', 'failed']);
  });

  it('enters action_required only from ready', () => {
    const sources = SESSION_STATUSES.filter((status) => nextStatus(status, 'action_required') !== null);
    expect(sources).toEqual(['ready']);
  });
});
