/**
 * Env of the hosts that run sessions: how they take session commands off the queue, the RPC API functions
 * reach them on, and the leases by which several hosts share sessions (MULTI_NODE).
 */
import { z } from 'zod';
import { flag, limit, optional, optionalMatching, optionalUrl, port } from './fields.js';

export const HostsEnv = z.object({
  COMMAND_VISIBILITY_TIMEOUT_S: limit(60),
  COMMAND_MAX_RECEIVES: limit(5),
  HOST_PORT: port(2786),
  HOST_RPC_TOKEN: optional(z.string().min(32, 'must be at least 32 characters')),
  HOST_RPC_TIMEOUT_MS: limit(20_000),
  NODE_ID: optionalMatching(/^[A-Za-z0-9_.:-]{1,128}$/, 'letters, digits, _ . : - only (1–128)'),
  NODE_URL: optionalUrl,
  MULTI_NODE: flag(undefined),
  LEASE_TTL_MS: limit(60_000),
  LEASE_RENEW_MS: limit(20_000),
  LEASE_SWEEP_MS: limit(30_000),
});
