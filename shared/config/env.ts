/**
 * The only reader of `process.env`. Every variable the gateway uses is declared, with its default, in the fragment
 * of its concern under `env/`, and composed here; a bad value stops boot with one message naming every bad
 * variable. Limits follow the spec's fallback rule: a missing, blank, non-positive or non-numeric value uses the
 * default.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { DeploymentEnv } from './env/deployment.js';
import { EngineEnv } from './env/engine.js';
import { defaultSessionCapacity, HostsEnv } from './env/hosts.js';
import { KeysEnv } from './env/keys.js';
import { McpEnv } from './env/mcp.js';
import { MediaEnv } from './env/media.js';
import { PacingEnv } from './env/pacing.js';
import { ServerEnv } from './env/server.js';
import { StorageEnv } from './env/storage.js';
import { WebhooksEnv } from './env/webhooks.js';
import { pinnedSettings, type RuntimeSettingName } from './runtime-settings.js';

/** Every variable, from the fragment of its concern; one schema, so one parse reports every bad variable. */
const EnvSchema = ServerEnv.extend(StorageEnv.shape)
  .extend(KeysEnv.shape)
  .extend(EngineEnv.shape)
  .extend(DeploymentEnv.shape)
  .extend(HostsEnv.shape)
  .extend(WebhooksEnv.shape)
  .extend(PacingEnv.shape)
  .extend(MediaEnv.shape)
  .extend(McpEnv.shape);

export type RawEnv = z.input<typeof EnvSchema>;

/** The validated configuration, with every path resolved. */
export type Env = Omit<
  z.output<typeof EnvSchema>,
  | 'MAIN_DATABASE_NAME'
  | 'DATABASE_NAME'
  | 'BOOTSTRAP_KEY_FILE'
  | 'AUTH_DIR'
  | 'AUTH_STATE_STORE'
  | 'MULTI_NODE'
  | 'NODE_ID'
  | 'NODE_URL'
  | 'STORAGE_TYPE'
  | 'STORAGE_LOCAL_PATH'
  | 'MAX_CONCURRENT_SESSIONS'
> & {
  AUTH_DIR: string;
  MAIN_DATABASE_NAME: string;
  DATABASE_NAME: string;
  BOOTSTRAP_KEY_FILE: string;
  AUTH_STATE_STORE: 'file' | 'dynamodb';
  /** Leases on session rows (aws mode always; embedded only when asked for). */
  MULTI_NODE: boolean;
  /** This host's identity in leases: NODE_ID, or the hostname plus a per-process suffix. */
  NODE_ID: string;
  /** Where functions reach this host's RPC API: NODE_URL, or http://<hostname>:<HOST_PORT>. */
  NODE_URL: string;
  /** Where message media is kept: files under STORAGE_LOCAL_PATH, or the S3_BUCKET. */
  STORAGE_TYPE: 'local' | 's3';
  STORAGE_LOCAL_PATH: string;
  /** The most sessions this host runs at once; 0 = no limit. */
  MAX_CONCURRENT_SESSIONS: number;
  /** The run-time settings (config/runtime-settings.ts) this environment sets: the API may not change them. */
  ENV_PINNED: readonly RuntimeSettingName[];
};

/** Thrown at boot when any variable is bad; the message names each one. */
export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/** Parses a variable map (process.env by default) into the typed, frozen configuration. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // Parsed once per process: zod's compiled fast path (generated on a schema's first parse) costs a cold start more
  // than it saves on one parse of a hundred variables (about half the parse's time).
  const result = EnvSchema.safeParse(source, { jitless: true });
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  }
  const parsed = result.data;
  const aws = parsed.DEPLOYMENT_MODE === 'aws';
  const problems: string[] = [];
  if (aws && !parsed.COMMAND_QUEUE_URL) problems.push('COMMAND_QUEUE_URL: required when DEPLOYMENT_MODE=aws');
  if (aws && !parsed.HOST_RPC_TOKEN) problems.push('HOST_RPC_TOKEN: required when DEPLOYMENT_MODE=aws');
  if (aws && parsed.API_THREAD) {
    problems.push('API_THREAD: needs DEPLOYMENT_MODE=embedded (in aws mode the API runs on Lambda)');
  } else if (parsed.API_THREAD && parsed.MULTI_NODE) {
    problems.push(
      'API_THREAD: not with MULTI_NODE (each node serves its API beside its host, through the host RPC)',
    );
  }
  if (!aws && parsed.AUTH_STATE_STORE === 'dynamodb') {
    problems.push('AUTH_STATE_STORE: dynamodb needs DEPLOYMENT_MODE=aws');
  }
  const storage = parsed.STORAGE_TYPE ?? (aws ? 's3' : 'local');
  if (aws && storage === 'local') {
    problems.push("STORAGE_TYPE: local needs DEPLOYMENT_MODE=embedded (functions cannot read a host's disk)");
  }
  if (storage === 's3' && !parsed.S3_BUCKET) {
    problems.push(
      `S3_BUCKET: required when STORAGE_TYPE=s3${aws ? ' (the default with DEPLOYMENT_MODE=aws)' : ''}`,
    );
  }
  if (parsed.LEASE_RENEW_MS * 2 > parsed.LEASE_TTL_MS) {
    problems.push(
      'LEASE_RENEW_MS: must be at most half of LEASE_TTL_MS, so one lost renewal never ends a lease',
    );
  }
  if (problems.length > 0) throw new EnvError(problems);
  const dataDir = path.resolve(parsed.DATA_DIR);
  const hostname = os.hostname();
  return Object.freeze({
    ...parsed,
    DATA_DIR: dataDir,
    MAIN_DATABASE_NAME: path.resolve(dataDir, parsed.MAIN_DATABASE_NAME ?? 'main.sqlite'),
    DATABASE_NAME: path.resolve(dataDir, parsed.DATABASE_NAME ?? 'data.sqlite'),
    BOOTSTRAP_KEY_FILE: path.resolve(dataDir, parsed.BOOTSTRAP_KEY_FILE ?? '.api-key'),
    AUTH_DIR: path.resolve(dataDir, parsed.AUTH_DIR ?? 'auth'),
    AUTH_STATE_STORE: parsed.AUTH_STATE_STORE ?? (aws ? 'dynamodb' : 'file'),
    STORAGE_TYPE: storage,
    STORAGE_LOCAL_PATH: path.resolve(dataDir, parsed.STORAGE_LOCAL_PATH ?? 'media'),
    MULTI_NODE: parsed.MULTI_NODE ?? aws,
    NODE_ID: parsed.NODE_ID ?? `${hostname}-${randomBytes(4).toString('hex')}`,
    NODE_URL: parsed.NODE_URL ?? `http://${hostname}:${parsed.HOST_PORT}`,
    MAX_CONCURRENT_SESSIONS: parsed.MAX_CONCURRENT_SESSIONS ?? defaultSessionCapacity(usableMemory()),
    ENV_PINNED: Object.freeze(pinnedSettings(source)),
  });
}

/** The memory this process may use: its cgroup's limit in a container, else the machine's. */
function usableMemory(): number {
  const total = os.totalmem();
  const constrained = process.constrainedMemory();
  return constrained > 0 && constrained < total ? constrained : total;
}
