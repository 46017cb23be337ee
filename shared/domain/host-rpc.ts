/**
 * The host RPC protocol (aws mode, DESIGN §1): what functions and other hosts ask the host that owns a session.
 * One POST per call; the request is a discriminated union on `op`, and each op has one result schema, so both
 * ends parse what crosses the wire and the types come from these schemas.
 */
import { z } from 'zod';
import { SessionCommand } from './commands.js';
import { Uuid } from './common.js';
import { Session, SessionStatus } from './session.js';

const sessionOp = <Op extends string>(op: Op) => z.strictObject({ op: z.literal(op), sessionId: Uuid });

export const HostRpcRequest = z.discriminatedUnion('op', [
  sessionOp('stop'),
  sessionOp('logout'),
  sessionOp('forceKill'),
  sessionOp('getQr'),
  sessionOp('requestPairingCode').extend({ phone: z.string().min(1).max(32) }),
  sessionOp('discard'),
  /** A queued command a non-owner received: the owner carries it out (FIFO order is kept by awaiting it). */
  z.strictObject({ op: z.literal('command'), command: SessionCommand }),
]);
export type HostRpcRequest = z.infer<typeof HostRpcRequest>;
export type HostRpcOp = HostRpcRequest['op'];
export type HostRpcRequestOf<Op extends HostRpcOp> = Extract<HostRpcRequest, { op: Op }>;

const QrSnapshot = z.object({ qr: z.string(), status: SessionStatus });
const PairingCode = z.object({ pairingCode: z.string(), status: SessionStatus });

/** The result schema of each op. */
export const HostRpcResults = {
  stop: Session,
  logout: Session,
  forceKill: Session,
  getQr: QrSnapshot,
  requestPairingCode: PairingCode,
  discard: z.null(),
  command: z.null(),
} satisfies Record<HostRpcOp, z.ZodType>;
export type HostRpcResultOf<Op extends HostRpcOp> = z.infer<(typeof HostRpcResults)[Op]>;

/** The error half of an answer: an AppError serialised by the host (see serializeAppError). */
export const HostRpcError = z.object({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  details: z.unknown().optional(),
});

/** Path of the RPC endpoint on a host's nodeUrl. */
export const HOST_RPC_PATH = '/rpc';
/** Path of the host's unauthenticated liveness probe (container health checks). */
export const HOST_HEALTH_PATH = '/healthz';
