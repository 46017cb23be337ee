/**
 * One definition per engine operation (issue 36): what a client asks of the engine of a running session, and
 * everything that follows from it. From a row, with no other hand-written code: the use case (session, scope,
 * capability 501, state 400, the owning host; shared/use-cases/engine/run-engine-operation.ts), the host's dispatch
 * to the engine's port (host/operations/engine-operations.ts), the lease-routed gateway's answer for a session no
 * host runs, the host RPC's validation both ways (host-operations.ts takes every row in), the route with its
 * OpenAPI entry (functions/http/engine-operation-route.ts) and the engine port's method signature (engine.port.ts).
 * Adding an operation is its row, its implementations in the engines, and tests.
 */
import type { z } from 'zod';
import type { HttpMethod } from '#shared/domain/http-method.js';
import type { MediaKind } from '#shared/domain/media-content.js';
import type { Role } from '#shared/domain/roles.js';
import type { MediaSource } from '#shared/domain/send-requests.js';
import type { Session, SessionStatus } from '#shared/domain/session.js';
import {
  ENGINE_CAPABILITIES,
  type EngineCapability,
  type OptionalEnginePort,
} from '../engine-capabilities.js';

/** The input of an operation: an object whose fields the route takes from its path and its query or body. */
export type OperationInput = z.ZodObject;

/** A file's bytes and media type, as the host hands them to an engine. */
export interface FileBytes {
  bytes: Uint8Array;
  mimetype: string;
}

/** What the host offers a row's `toEngine`. */
export interface OperationFiles {
  /**
   * The file of `source`: a URL fetched through the SSRF guard (never following redirects, up to the media size
   * cap), or base64 decoded; its type is `mimetype`, or what the URL answered with. 400 when it is empty or of a
   * type `kind` cannot be (MEDIA_KINDS).
   */
  read(kind: MediaKind, source: MediaSource, mimetype: string | undefined): Promise<FileBytes>;
}

/**
 * How an operation meets a key limited to chats (shared/domain/chat-scope.ts): `none`, it names no chat and tells of
 * none; `addresses`, the input fields that name a chat (each must be in the key's list, else 403); `listed`, its
 * result is a list of chats (or of items of chats, `listed` naming each one's chat) answered filtered to the key's
 * list. Absent: such a key is refused (403), as for what acts on the whole account.
 */
export type OperationChats<Input, Result> =
  | 'none'
  | { addresses: readonly (keyof Input & string)[] }
  | (Result extends readonly (infer Item)[] ? { listed: (item: Item) => string } : never);

/** How the HTTP API exposes an operation. */
export interface OperationRoute {
  method: HttpMethod;
  /**
   * Under `/api/sessions/{sessionId}/`; each other `{name}` is the input field of that name. The input's remaining
   * fields are the query (GET, DELETE) or the JSON body (POST, PUT, PATCH).
   */
  path: `/api/sessions/{sessionId}/${string}`;
  summary: string;
  /** The API reference's group (and the resource group's Lambda that serves it). */
  tag: string;
  success: 200 | 201 | 202 | 204;
  /** Statuses besides those every operation documents (400, 403, 404, 501 and the common ones). */
  errors?: readonly number[];
}

export interface EngineOperationRow<
  Name extends string = string,
  Capability extends EngineCapability = EngineCapability,
  Method extends string = string,
  Input extends OperationInput = OperationInput,
  Result extends z.ZodType = z.ZodType,
  EngineInput = z.output<Input>,
> {
  /** `<domain>.<action>`: the host operation's name, on the RPC and in logs. */
  name: Name;
  /** What the engine must be able to do; its port (ENGINE_CAPABILITIES) is where the host finds `method`. */
  capability: Capability;
  /** The port's method the host calls with the parsed input. */
  method: Method;
  input: Input;
  result: Result;
  /** The least role a key needs. Every operation is session-scoped: a key scoped to other sessions gets 403. */
  role: Role;
  /** How it meets a key limited to chats; absent: such a key is refused. */
  chats?: OperationChats<z.output<Input>, z.output<Result>>;
  /** The session statuses in which the engine can answer (400 SESSION_NOT_READY otherwise); default `ready`. */
  states?: readonly SessionStatus[];
  /**
   * The answer when the session's engine is not running (stopped, or no host owns it): by default 400
   * SESSION_NOT_READY (shared/use-cases/engine/engine-operation-state.ts); a row whose answer is known without the
   * engine gives it here.
   */
  whenNotRunning?: (session: Session) => Promise<z.output<Result>>;
  /**
   * What the engine's method takes instead of the parsed input, made by the host that runs the engine once the input
   * reached it: a file the input names by URL or carries in base64 becomes bytes there, so the engine never fetches
   * and the RPC carries no more than the request did. Absent: the engine takes the input.
   */
  toEngine?(input: z.output<Input>, files: OperationFiles): Promise<EngineInput>;
  http: OperationRoute;
  /**
   * A valid input and the result an engine could answer to it: the API reference's examples, and what the tests
   * generated from the rows send through the host RPC and the routes.
   */
  example: { input: z.input<Input>; result: z.output<Result> };
}

/** Declares a row; the literal types of its name, capability and method carry into the port and host maps. */
export function defineEngineOperation<
  const Name extends string,
  const Capability extends EngineCapability,
  const Method extends string,
  Input extends OperationInput,
  Result extends z.ZodType,
  EngineInput = z.output<Input>,
>(
  row: EngineOperationRow<Name, Capability, Method, Input, Result, EngineInput>,
): EngineOperationRow<Name, Capability, Method, Input, Result, EngineInput> {
  return row;
}

/** The port of a row's capability. */
export type PortOfCapability<C extends EngineCapability> = (typeof ENGINE_CAPABILITIES)[C]['port'];

export function portOf(row: EngineOperationRow): OptionalEnginePort {
  return ENGINE_CAPABILITIES[row.capability].port;
}

const READY_ONLY: readonly SessionStatus[] = ['ready'];

/** The statuses in which `row` may run (ready, unless it names others). */
export function statesOf(row: Pick<EngineOperationRow, 'states'>): readonly SessionStatus[] {
  return row.states ?? READY_ONLY;
}
