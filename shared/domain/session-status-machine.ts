/**
 * The session status machine of the spec, as one pure function. Every status write driven by an engine or an
 * operator goes through `nextStatus`, so an illegal move is impossible rather than merely unlikely.
 */
import { RUNNING_STATUSES, type SessionStatus } from './session.js';

export type SessionTrigger =
  /** An operator start (or restart from disconnected/failed). */
  | 'start'
  /** The gateway came back up and picks up a session that was running. */
  | 'resume'
  | 'qr_generated'
  /** The QR was scanned, a pairing code entered, or stored credentials presented. */
  | 'credentials_presented'
  | 'auth_succeeded'
  | 'auth_failed'
  | 'connection_lost'
  | 'reconnect'
  | 'reconnect_exhausted'
  /** Deliberate evidence from the network that an operator must act (never a single failed probe). */
  | 'action_required'
  | 'action_resolved'
  | 'stop'
  | 'logout'
  | 'force_kill'
  | 'engine_failed';

type Rule = { from: readonly SessionStatus[]; to: SessionStatus };

/**
 * Triggers after which no engine runs for the session until someone starts it again. A multi-node host gives the
 * session's lease back in the same write, so the row shows an owner exactly while an engine runs or should run
 * (reconnect backoff included): a lapsed owner then always means a host that died, whose session is adopted.
 */
export const ENGINE_ENDING_TRIGGERS: ReadonlySet<SessionTrigger> = new Set<SessionTrigger>([
  'stop',
  'logout',
  'force_kill',
  'engine_failed',
  'auth_failed',
  'reconnect_exhausted',
]);

const RUNNING = [...RUNNING_STATUSES];
const STOPPABLE: readonly SessionStatus[] = [...RUNNING, 'disconnected'];

const RULES: Record<SessionTrigger, Rule> = {
  start: { from: ['created', 'disconnected', 'failed'], to: 'initializing' },
  resume: { from: RUNNING, to: 'initializing' },
  qr_generated: { from: ['initializing', 'qr_ready'], to: 'qr_ready' },
  credentials_presented: { from: ['initializing', 'qr_ready', 'authenticating'], to: 'authenticating' },
  auth_succeeded: { from: ['initializing', 'authenticating'], to: 'ready' },
  auth_failed: { from: ['initializing', 'qr_ready', 'authenticating'], to: 'failed' },
  connection_lost: { from: RUNNING, to: 'disconnected' },
  reconnect: { from: ['disconnected'], to: 'initializing' },
  reconnect_exhausted: { from: ['disconnected', 'initializing'], to: 'failed' },
  action_required: { from: ['ready'], to: 'action_required' },
  action_resolved: { from: ['action_required'], to: 'ready' },
  stop: { from: STOPPABLE, to: 'disconnected' },
  logout: { from: STOPPABLE, to: 'disconnected' },
  force_kill: { from: STOPPABLE, to: 'disconnected' },
  engine_failed: { from: STOPPABLE, to: 'failed' },
};

/** The status after `trigger` in status `from`, or null when the spec does not allow that move. */
export function nextStatus(from: SessionStatus, trigger: SessionTrigger): SessionStatus | null {
  const rule = RULES[trigger];
  return rule.from.includes(from) ? rule.to : null;
}

/** The statuses from which `trigger` is allowed (for compare-and-set writes). */
export function statusesAllowing(trigger: SessionTrigger): readonly SessionStatus[] {
  return RULES[trigger].from;
}
