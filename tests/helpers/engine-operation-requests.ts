/**
 * The HTTP request of an engine operation row with a given input, laid out the way its route takes it (the path's
 * `{name}`s, then the query or the JSON body): what the tests generated from the rows send.
 */
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
