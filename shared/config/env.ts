/**
 * The only reader of `process.env`. Every variable the gateway uses is declared here with its default; a bad value
 * stops boot with one message naming every bad variable. Limits follow the spec's fallback rule: a missing, blank,
 * non-positive or non-numeric value uses the default.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** Spec "limit env fallback": anything but a positive number means the default. Never fails. */
const limit = (fallback: number) =>
  z.preprocess((value) => {
    const n = typeof value === 'string' ? Number(value.trim()) : Number.NaN;
    return Number.isFinite(n) && n > 0 && value !== '' ? Math.floor(n) : fallback;
  }, z.number().int().positive());

/** Retention in days: 0 or less disables (null); an unparseable value uses the default. */
const retentionDays = (fallback: number) =>
  z.preprocess((value) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
    if (!Number.isFinite(n)) return fallback;
    return n <= 0 ? null : n;
  }, z.number().positive().nullable());

const port = (fallback: number) =>
  z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).default(fallback));

const commaList = z.preprocess(blankToUndefined, z.string().optional()).transform((v) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [],
);

const optionalString = z.preprocess(blankToUndefined, z.string().optional());

const optionalUrl = z.preprocess(
  blankToUndefined,
  z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// URL')
    .optional(),
);

const flag = (fallback: boolean | undefined) =>
  z.preprocess(
    blankToUndefined,
    z
      .enum(['true', 'false', '1', '0'])
      .optional()
      .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1')),
  );

const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
/** Sizes like `25mb`, `512kb` or a plain byte count. */
const byteSize = (fallback: string) =>
  z.preprocess(blankToUndefined, z.string().default(fallback)).transform((v, ctx) => {
    const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(v.trim());
    const unit = BYTE_UNITS[(match?.[2] ?? 'b').toLowerCase()];
    if (!match || unit === undefined || Number(match[1]) <= 0) {
      ctx.addIssue({ code: 'custom', message: 'expected a size such as 25mb, 512kb or a byte count' });
      return z.NEVER;
    }
    return Math.floor(Number(match[1]) * unit);
  });

const API_KEY_PATTERN = /^wg_[0-9a-f]{64}$/;

const EnvSchema = z.object({
  LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  PORT: port(2785),
  BIND_HOST: z.preprocess(blankToUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data')),
  MAIN_DATABASE_NAME: optionalString,
  DATABASE_NAME: optionalString,
  BOOTSTRAP_KEY_FILE: optionalString,
  BOOTSTRAP_ADMIN_KEY: z.preprocess(
    blankToUndefined,
    z.string().regex(API_KEY_PATTERN, 'must be wg_ followed by 64 lowercase hex characters').optional(),
  ),
  ENGINE: z.preprocess(blankToUndefined, z.enum(['baileys', 'test']).default('baileys')),
  AUTH_DIR: optionalString,
  WA_WEBSOCKET_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^wss?:\/\/\S+$/, 'must be a ws:// or wss:// URL')
      .optional(),
  ),
  WA_SERVER_ROOT_KEY: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be the base64 of a 32-byte public key')
      .optional(),
  ),
  BAILEYS_LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('silent'),
  ),
  TRUSTED_PROXIES: commaList,
  BODY_SIZE_LIMIT: byteSize('25mb'),
  METRICS_TOKEN: optionalString,
  RATE_LIMIT_MAX: limit(100),
  RATE_LIMIT_WINDOW_MS: limit(60_000),
  AUDIT_RETENTION_DAYS: retentionDays(90),
  API_KEY_USAGE_FLUSH_MS: limit(60_000),
  API_KEY_CACHE_TTL_MS: limit(5_000),
  ENGINE_TEARDOWN_TIMEOUT_MS: limit(10_000),
  COMMAND_VISIBILITY_TIMEOUT_S: limit(60),
  COMMAND_MAX_RECEIVES: limit(5),
  SHUTDOWN_GRACE_MS: limit(5_000),
  BAILEYS_MESSAGE_STORE_LIMIT: limit(5_000),
  BAILEYS_CONNECT_TIMEOUT_MS: limit(20_000),
  SEND_WAIT_MS: limit(5_000),

  // Deployment mode (DESIGN §1): `embedded` runs everything in one process on SQLite; `aws` uses DynamoDB, SQS and
  // hosts that share sessions through leases.
  DEPLOYMENT_MODE: z.preprocess(blankToUndefined, z.enum(['embedded', 'aws']).default('embedded')),
  AWS_REGION: z.preprocess(blankToUndefined, z.string().default('us-east-1')),
  /** Local emulators (DynamoDB Local, an SQS emulator, LocalStack); unset in AWS. */
  DYNAMODB_ENDPOINT: optionalUrl,
  SQS_ENDPOINT: optionalUrl,
  TABLE_PREFIX: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{0,200}$/, 'letters, digits, _ . - only')
      .default('waygate-'),
  ),
  COMMAND_QUEUE_URL: optionalUrl,
  WEBHOOK_QUEUE_URL: optionalUrl,
  /** Where Baileys keeps linked-device credentials and Signal keys: files under AUTH_DIR, or DynamoDB. */
  AUTH_STATE_STORE: z.preprocess(blankToUndefined, z.enum(['file', 'dynamodb']).optional()),
  /** The release name where no package.json is at hand (Lambda bundles); the host reads package.json. */
  SERVICE_VERSION: optionalString,
  HOST_PORT: port(2786),
  HOST_RPC_TOKEN: z.preprocess(
    blankToUndefined,
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  HOST_RPC_TIMEOUT_MS: limit(20_000),
  NODE_ID: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'letters, digits, _ . : - only (1–128)')
      .optional(),
  ),
  NODE_URL: optionalUrl,
  MULTI_NODE: flag(undefined),
  LEASE_TTL_MS: limit(60_000),
  LEASE_RENEW_MS: limit(20_000),
  LEASE_SWEEP_MS: limit(30_000),
});

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
  const result = EnvSchema.safeParse(source);
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
  if (!aws && parsed.AUTH_STATE_STORE === 'dynamodb') {
    problems.push('AUTH_STATE_STORE: dynamodb needs DEPLOYMENT_MODE=aws');
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
    MULTI_NODE: parsed.MULTI_NODE ?? aws,
    NODE_ID: parsed.NODE_ID ?? `${hostname}-${randomBytes(4).toString('hex')}`,
    NODE_URL: parsed.NODE_URL ?? `http://${hostname}:${parsed.HOST_PORT}`,
  });
}
