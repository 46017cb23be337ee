/**
 * Env of the hosts that run sessions: how they take session commands off the queue, the RPC API functions
 * reach them on, and the leases by which several hosts share sessions (MULTI_NODE).
 */
import { z } from 'zod';
import { flag, limit, optional, optionalMatching, optionalUrl, port } from './fields.js';

/**
 * The memory budget of one running session in the default capacity: an idle linked Baileys session keeps about
 * 2.5 MB of RSS (its share of the heap included, tests/bench/restart-scale.mjs), and a busy one more.
 */
const SESSION_MEMORY_BUDGET_BYTES = 4 * 1024 * 1024;

/**
 * MAX_CONCURRENT_SESSIONS when unset: as many sessions as half the memory this process may use (its cgroup's
 * limit in a container, else the machine's) holds at the budget above; the rest is the gateway's own and the heap's
 * headroom. 24 GB: 3,072 sessions; a 2 GB container: 256.
 */
export function defaultSessionCapacity(memoryBytes: number): number {
  return Math.max(1, Math.floor(memoryBytes / 2 / SESSION_MEMORY_BUDGET_BYTES));
}

export const HostsEnv = z.object({
  /**
   * The most sessions one host runs at once (0: no limit); a start beyond it is refused (400 SESSION_LIMIT_REACHED)
   * rather than letting the host run out of memory with every session on it. Unset: from the memory (above).
   */
  MAX_CONCURRENT_SESSIONS: optional(z.coerce.number().int().min(0)),
  /**
   * Sessions connecting at once (a restart resumes every session through this many slots). Reconnecting is CPU-bound
   * on the host's thread: more slots barely shorten a restart and hold the API's answers longer (Sizing in
   * docs/operations.md).
   */
  SESSION_CONNECT_CONCURRENCY: limit(3),
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
