/**
 * The route of an engine operation row (shared/domain/engine-operations/): its path's `{name}`s are taken from the
 * row's input (with `{sessionId}`), the remaining input fields are the query (GET, DELETE) or the JSON body; the role,
 * the capability (its 501), the result schema and the success status come from the row, and `run` calls the one
 * use case every row shares. Nothing else is written per operation.
 */
import { z } from 'zod';
import type { EngineOperationRow } from '#shared/domain/engine-operations/engine-operation.js';
import type { EngineOperationName } from '#shared/domain/engine-operations/engine-operations.js';
import { runEngineOperation } from '#shared/use-cases/engine/run-engine-operation.js';
import { parseInput } from './parse-request.js';
import { type AnyRoute, defineRoute, type RouteChats } from './route.js';

const SessionId = z.uuid({ message: 'must be a session id (uuid)' });

/** The `{name}`s of a path, in order. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

/**
 * Statuses every engine operation may answer besides success and the common ones: 404 (session, or what the input
 * names), 409 (the owning host cannot be reached right now; retryable). 400 (SESSION_NOT_READY, bad input) and 503
 * (ENGINE_UNAVAILABLE: the engine could not get the network's answer) are common to every route.
 */
const OPERATION_ERRORS = [404, 409] as const;

/** A row's `chats` as its route declares them: a listed result is filtered by the use case. */
function routeChats(chats: NonNullable<EngineOperationRow['chats']>): RouteChats {
  if (chats === 'none') return 'none';
  return 'addresses' in chats ? { addresses: chats.addresses } : { lists: true };
}

export function engineOperationRoute(row: EngineOperationRow): AnyRoute {
  const inPath = new Set(pathParameters(row.http.path).filter((name) => name !== 'sessionId'));
  const fields = Object.entries(row.input.shape);
  const missing = [...inPath].filter((name) => !(name in row.input.shape));
  if (missing.length > 0)
    throw new Error(`${row.name}: the path names ${missing.join(', ')}, not in its input`);
  const pathFields = Object.fromEntries(fields.filter(([name]) => inPath.has(name)));
  const restFields = Object.fromEntries(fields.filter(([name]) => !inPath.has(name)));
  const rest = z.strictObject(restFields);
  const restIsEmpty = Object.keys(restFields).length === 0;
  const inQuery = row.http.method === 'GET' || row.http.method === 'DELETE';
  // Rules that span the input's fields (a refinement of the whole object) are lost when it is split into path, query
  // and body: only such a row's input is checked once more whole, so the others are parsed once.
  const spansFields = (row.input._zod.def.checks?.length ?? 0) > 0;
  return defineRoute({
    method: row.http.method,
    path: row.http.path,
    summary: row.http.summary,
    tag: row.http.tag,
    auth: { role: row.role },
    params: z.strictObject({ sessionId: SessionId, ...pathFields }),
    ...(restIsEmpty ? {} : inQuery ? { query: rest } : { body: rest }),
    response: row.result,
    success: row.http.success,
    errors: [...OPERATION_ERRORS, ...(row.http.errors ?? [])],
    capability: row.capability,
    ...(row.chats === undefined ? {} : { chats: routeChats(row.chats) }),
    run: ({ deps, caller, params, query, body }) => {
      // The stack parsed each part with its slice of the row's input: together they are the input.
      const { sessionId, ...fromPath } = params as { sessionId: string } & Record<string, unknown>;
      const parts = { ...fromPath, ...(query as object), ...(body as object) };
      const input = spansFields ? parseInput(row.input, parts, inQuery ? 'query' : 'body') : parts;
      return runEngineOperation(deps, caller, row.name as EngineOperationName, sessionId, input as never);
    },
  });
}
