/**
 * The HTTP request of an engine operation row with a given input, laid out the way its route takes it (the path's
 * `{name}`s, then the query or the JSON body): what the tests generated from the rows send.
 */
import type { TestNetwork } from '#host/engines/test/test-network.js';
import type { EngineOperationRow } from '#shared/domain/engine-operations/engine-operation.js';

export interface OperationRequest {
  method: string;
  path: string;
  body?: unknown;
}

export function operationRequest(
  row: EngineOperationRow,
  sessionId: string,
  input: Record<string, unknown> = row.example.input as Record<string, unknown>,
): OperationRequest {
  const rest = { ...input };
  const path = row.http.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'sessionId') return sessionId;
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  if (Object.keys(rest).length === 0) return { method: row.http.method, path };
  if (row.http.method === 'GET' || row.http.method === 'DELETE') {
    const query = new URLSearchParams(
      Object.entries(rest).map(([key, value]): [string, string] => [key, String(value)]),
    );
    return { method: row.http.method, path: `${path}?${query}` };
  }
  return { method: row.http.method, path, body: rest };
}

/**
 * Puts on the test network what the rows' examples name, as they expect it, for the session whose account is
 * `ownPhone` (digits): the example group with that account as its admin and the example contact as a member, the
 * example label on the contact's chat, and the example call ringing. Again before each example: one may leave the
 * group, revoke its code, delete the label or reject the call.
 */
export function seedOperationExamples(network: TestNetwork, sessionId: string, ownPhone: string): void {
  network.calls.set('TESTCALL000001', {
    sessionId,
    from: '15550002222@c.us',
    video: false,
    status: 'ringing',
    timestamp: 1_790_000_000,
  });
  network.labels
    .of(sessionId)
    .set('1', { name: 'New customer', color: 0, chats: new Set(['15550002222@c.us']) });
  network.groups.put({
    id: '120363025246125411@g.us',
    subject: 'Team',
    description: null,
    owner: `${ownPhone}@c.us`,
    creation: 1_790_000_000,
    members: new Map([
      [`${ownPhone}@c.us`, 'superadmin'],
      ['15550002222@c.us', 'member'],
    ]),
    settings: { announce: false, locked: false, ephemeralSeconds: 0, memberAddMode: 'admins' },
    inviteCode: 'AbCdEfGh123',
    requests: new Map(),
  });
}
