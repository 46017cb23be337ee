/**
 * Owner-directed operations (DESIGN §2): what functions (and other hosts) ask of the host that runs a session's
 * engine, and need answered now. One map, name → input and result schemas: the HostGateway port, the in-process
 * host, the lease-routed gateway and the host RPC all carry `(operation, input)` through one call, the RPC
 * validates both halves with these schemas, and a new operation is a row here plus its handler on the host. Every
 * input names the session, which is how calls are routed to its owner.
 */
import { z } from 'zod';
import { SessionCommand } from './commands.js';
import { Uuid } from './common.js';
import {
  ENGINE_OPERATION_ROWS,
  type EngineOperationInput,
  type EngineOperationName,
  type EngineOperationResult,
} from './engine-operations/engine-operations.js';
import { Session, SessionStatus } from './session.js';
import { StatusPost, StatusPosted } from './status-requests.js';

const SessionRef = z.strictObject({ sessionId: Uuid });

/** The QR an engine shows (the raw payload; callers render it). */
export const QrSnapshot = z.object({ qr: z.string(), status: SessionStatus });
export type QrSnapshot = z.infer<typeof QrSnapshot>;

/** 8 characters to type on the phone (WhatsApp → Linked devices → Link with phone number). */
export const PairingCode = z.object({ pairingCode: z.string(), status: SessionStatus });
export type PairingCode = z.infer<typeof PairingCode>;

const SESSION_OPERATIONS = {
  /** Stops the engine (keeping credentials); the session ends `disconnected`. No engine: the row is settled. */
  'session.stop': { input: SessionRef, result: Session },
  /** Unlinks the device and wipes credentials. 400 when no engine runs; 502 SESSION_LOGOUT_INCOMPLETE on timeout. */
  'session.logout': { input: SessionRef, result: Session },
  /** Kills a stuck engine and tears the session down. 400 when no engine runs. */
  'session.forceKill': { input: SessionRef, result: Session },
  /** The current QR; 400 when none is showing (not started, or already authenticated). */
  'session.qr': { input: SessionRef, result: QrSnapshot },
  /** A pairing code for `phone`; 400 not started or already authenticated, 501 unsupported by the engine. */
  'session.pairingCode': {
    input: SessionRef.extend({ phone: z.string().min(1).max(32) }),
    result: PairingCode,
  },
  /** Stops any engine and wipes the session's credentials, ahead of deleting the row. */
  'session.discard': { input: SessionRef, result: z.null() },
  /**
   * Answers once the host settled the message (sent or failed), or `settled: false` after `timeoutMs`: how a send
   * request in another process waits for its outcome (shared/ports/message-outcomes.port.ts).
   */
  'message.awaitOutcome': {
    input: SessionRef.extend({ messageId: Uuid, timeoutMs: z.number().int().min(0).max(60_000) }),
    result: z.strictObject({ settled: z.boolean() }),
  },
  /** A queued command a non-owner received: the owner carries it out (FIFO order is kept by awaiting it). */
  'command.run': { input: SessionRef.extend({ command: SessionCommand }), result: z.null() },
  /**
   * Posts a status update (its file already archived under `statusId`) to its recipients and keeps it as the
   * account's own; 400 SESSION_NOT_READY when the engine is not ready.
   */
  'status.post': {
    input: SessionRef.extend({
      statusId: z.string().min(1).max(128),
      post: StatusPost,
      recipients: z.array(z.string().min(1).max(64)).min(1).max(256),
    }),
    result: StatusPosted,
  },
  /** Deletes the account's own status for everyone it went to; 404 when it has no such status (shown now). */
  'status.revoke': { input: SessionRef.extend({ statusId: z.string().min(1).max(128) }), result: z.null() },
} as const satisfies Record<string, HostOperationSchemas>;

interface HostOperationSchemas {
  input: z.ZodType<{ sessionId: string }>;
  result: z.ZodType;
}

/** An engine operation as the host carries it: the row's input with the session it is for, and its result. */
type EngineHostOperations = {
  [N in EngineOperationName]: {
    input: z.ZodType<{ sessionId: string } & EngineOperationInput<N>>;
    result: z.ZodType<EngineOperationResult<N>>;
  };
};

/** Every engine operation row (engine-operations/), its input extended with the session it is for. */
const ENGINE_HOST_OPERATIONS = Object.fromEntries(
  ENGINE_OPERATION_ROWS.map((row) => [
    row.name,
    { input: SessionRef.extend(row.input.shape), result: row.result },
  ]),
) as unknown as EngineHostOperations;

export const HOST_OPERATIONS = { ...SESSION_OPERATIONS, ...ENGINE_HOST_OPERATIONS };

export type HostOperation = keyof typeof HOST_OPERATIONS;
export type HostOperationInput<Op extends HostOperation> = z.output<(typeof HOST_OPERATIONS)[Op]['input']>;
export type HostOperationResult<Op extends HostOperation> = z.output<(typeof HOST_OPERATIONS)[Op]['result']>;
export const HOST_OPERATION_NAMES = Object.keys(HOST_OPERATIONS) as HostOperation[];

/** One handler per operation: what the host runs, and the shape every HostGateway dispatches through. */
export type HostOperationHandlers = {
  [Op in HostOperation]: (input: HostOperationInput<Op>) => Promise<HostOperationResult<Op>>;
};

/** Runs the handler of `operation` (the one place the map's per-operation types meet a runtime name). */
export function runOperation<Op extends HostOperation>(
  handlers: HostOperationHandlers,
  operation: Op,
  input: HostOperationInput<Op>,
): Promise<HostOperationResult<Op>> {
  const handler = handlers[operation] as (input: HostOperationInput<Op>) => Promise<HostOperationResult<Op>>;
  return handler(input);
}
