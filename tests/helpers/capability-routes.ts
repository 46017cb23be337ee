/**
 * What each route that declares an engine capability answers on each engine kind, written by hand: nothing here is
 * derived from the capability table or the routes, so a change to either that changes an answer fails a test until
 * this table says so. Two tests read it: the functions' handlers on every kind (tests/unit/functions/
 * engine-capabilities.test.ts, which also fails when a route declares a capability and has no row here), and a real
 * gateway running the `test-core` engine in both deployment modes (tests/api/engine-capabilities.test.ts).
 *
 * A route that declares a capability adds its row: the request, the state its session is brought to, and the status
 * per kind (501 where the kind lacks the capability; `test-core` lacks every one, so it is 501 in every row).
 */
import type { EngineCapability, EngineKind } from '#shared/domain/engine-capabilities.js';
import { ACCOUNT_CAPABILITY_ROUTES } from './capability-routes-account.js';

export interface CapabilityRouteRow {
  /** The capability the route declares. */
  capability: EngineCapability;
  /** The status the session named by the path's `{id}` or `{sessionId}` is brought to before the request. */
  session: 'qr_ready' | 'ready';
  /** Path parameters besides the session's id. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The answer's status on a gateway running each kind, when the host carries the operation out. */
  status: Record<EngineKind, number>;
  /**
   * Past the check the route reads the data store, not a host (the chat list): no host call and nothing queued
   * however it answers.
   */
  readsStore?: true;
}

/** By `METHOD path`, as the route declares them. */
export const CAPABILITY_ROUTES: Readonly<Record<string, CapabilityRouteRow>> = {
  'POST /api/sessions/{id}/pairing-code': {
    capability: 'pairing_code',
    session: 'qr_ready',
    body: { phoneNumber: '15550009876' },
    status: { baileys: 201, webjs: 501, test: 201, 'test-core': 501 },
  },
  'GET /api/sessions/{sessionId}/contacts/check/{number}': {
    capability: 'contacts_check',
    session: 'ready',
    params: { number: '15550002222' },
    status: { baileys: 200, webjs: 501, test: 200, 'test-core': 501 },
  },
  'GET /api/sessions/{sessionId}/contacts/{contactId}/profile-picture': {
    capability: 'contacts_read',
    session: 'ready',
    params: { contactId: '15550002222@c.us' },
    status: { baileys: 200, webjs: 501, test: 200, 'test-core': 501 },
  },
  'GET /api/sessions/{sessionId}/contacts/{contactId}/phone': {
    capability: 'contacts_read',
    session: 'ready',
    params: { contactId: '880001@lid' },
    status: { baileys: 200, webjs: 501, test: 200, 'test-core': 501 },
  },
  'GET /api/sessions/{sessionId}/contacts/{contactId}/lid': {
    capability: 'contacts_read',
    session: 'ready',
    params: { contactId: '15550002222@c.us' },
    status: { baileys: 200, webjs: 501, test: 200, 'test-core': 501 },
  },
  'GET /api/sessions/{sessionId}/contacts/profile-pictures': {
    capability: 'contacts_read',
    session: 'ready',
    query: { ids: '15550002222@c.us,880001@lid' },
    status: { baileys: 200, webjs: 501, test: 200, 'test-core': 501 },
  },
  'GET /api/sessions/{sessionId}/contacts': {
    capability: 'contacts_read',
    session: 'ready',
    query: { limit: '10' },
    status: { baileys: 200, webjs: 501, test: 200, 'test-core': 501 },
  },
  'GET /api/sessions/{sessionId}/contacts/{contactId}': {
    capability: 'contacts_read',
    session: 'ready',
    params: { contactId: '15550002222@c.us' },
    status: { baileys: 200, webjs: 501, test: 200, 'test-core': 501 },
  },
  'GET /api/sessions/{sessionId}/contacts/blocked': {
    capability: 'contacts_block',
    session: 'ready',
    status: { baileys: 200, webjs: 501, test: 200, 'test-core': 501 },
  },
  'POST /api/sessions/{sessionId}/contacts/{contactId}/block': {
    capability: 'contacts_block',
    session: 'ready',
    params: { contactId: '15550002222@c.us' },
    status: { baileys: 200, webjs: 501, test: 200, 'test-core': 501 },
  },
  'DELETE /api/sessions/{sessionId}/contacts/{contactId}/block': {
    capability: 'contacts_block',
    session: 'ready',
    params: { contactId: '15550002222@c.us' },
    status: { baileys: 200, webjs: 501, test: 200, 'test-core': 501 },
  },
  ...ACCOUNT_CAPABILITY_ROUTES,
};

/** The request of a row: `METHOD path` split, with the session's id and the row's parameters in the path. */
export function requestOf(route: string, row: CapabilityRouteRow, sessionId: string) {
  const [method = '', template = ''] = route.split(' ');
  const path = template.replace(/\{(\w+)\}/g, (_, param: string) => {
    if (param === 'id' || param === 'sessionId') return sessionId;
    const value = row.params?.[param];
    if (value === undefined)
      throw new Error(`${route}: give the row a value for the path parameter {${param}}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(row.query ?? {}).toString();
  return { method, path, query };
}
