/**
 * The stores, queues (commands, webhooks), media archive and engine auth-state store of this host, by deployment mode:
 * SQLite files, the embedded queue and media files (embedded), or DynamoDB, SQS and S3 (aws). Part of the host's
 * composition root. The aws adapters are imported in aws mode only: the AWS SDK's modules are about 100 ms of a
 * start that the embedded mode never uses (aws-backends.ts).
 */
import path from 'node:path';
import { CachingAuthStateStore } from '#shared/adapters/caching/caching-auth-state-store.js';
import { CachingSessionStore } from '#shared/adapters/caching/caching-session-store.js';
import { CachingWebhookStore } from '#shared/adapters/caching/caching-webhook-store.js';
import { openEmbeddedQueues } from '#shared/adapters/embedded-queue/open-embedded-queues.js';
import { openMediaStorage } from '#shared/adapters/open-media-storage.js';
import { SqliteAuthStateStore } from '#shared/adapters/sqlite/sqlite-auth-state-store.js';
import { openSqliteDataStore, openSqliteMainStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import { threadBroadcast } from '#shared/adapters/thread-broadcast.js';
import type { Env } from '#shared/config/env.js';
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { Queue } from '#shared/ports/queue.port.js';
import type { DataStore, MainStore } from '#shared/ports/stores.port.js';

/** Bounds staleness should another process write the same SQLite file (none does in normal operation). */
const SESSION_CACHE_TTL_MS = 5_000;
/**
 * How long a session's active webhooks are served from memory. Changes made through this process apply at once;
 * in aws mode the API runs elsewhere, so a change reaches the deliveries within this time.
 */
const WEBHOOK_CACHE_TTL_MS = 5_000;

export interface Backends {
  main: MainStore;
  data: DataStore;
  commandQueue: Queue;
  /**
   * The webhook queue of the queued delivery: the embedded queue (used when QUEUE_ENABLED=true), or SQS in aws mode
   * (null without WEBHOOK_QUEUE_URL). host/events/webhook-queue-consumer.ts produces to and consumes it.
   */
  webhookQueue: Queue | null;
  /** Where the files of messages are archived (STORAGE_TYPE); the functions serve them from the same place. */
  media: MediaStorage;
  /** Linked-device credentials and Signal keys; opened on first use (the test engine keeps its identity there too). */
  authState(): AuthStateStore;
  close(): Promise<void>;
}

/**
 * Opens the stores of this deployment mode. With API_THREAD both the host's thread and the API's call this, each
 * for connections of its own to the same files.
 */
export async function openBackends(env: Env, logger?: Logger): Promise<Backends> {
  const stores =
    env.DEPLOYMENT_MODE === 'aws'
      ? (await import('./aws-backends.js')).openAwsBackends(env, logger)
      : openEmbedded(env);
  const webhooks = new CachingWebhookStore(stores.data.webhooks, WEBHOOK_CACHE_TTL_MS);
  // The API's thread changes the webhooks the host's thread delivers to: each tells the other at once.
  const invalidations = env.API_THREAD ? threadBroadcast('cache:webhooks') : null;
  if (invalidations) webhooks.shareInvalidations(invalidations);
  const opened = { ...stores, data: { ...stores.data, webhooks } };
  let authState: AuthStateStore | null = null;
  const media = openMediaStorage(env);
  return {
    ...opened,
    media,
    authState() {
      authState ??= new CachingAuthStateStore(
        env.AUTH_STATE_STORE === 'dynamodb'
          ? opened.dynamoDbAuthState()
          : new SqliteAuthStateStore(env.AUTH_DIR),
        // Signal's one-time pre-keys: hundreds written when a device links, each read at most once.
        { uncachedCategories: ['pre-key'] },
      );
      return authState;
    },
    async close() {
      await authState?.close();
      await media.close();
      invalidations?.close();
      await opened.close();
    },
  };
}

/** What each mode opens; the auth-state store on DynamoDB (AUTH_STATE_STORE=dynamodb) exists in aws mode only. */
export interface ModeBackends
  extends Pick<Backends, 'main' | 'data' | 'commandQueue' | 'webhookQueue' | 'close'> {
  dynamoDbAuthState(): AuthStateStore;
}

function openEmbedded(env: Env): ModeBackends {
  const main = openSqliteMainStore(env.MAIN_DATABASE_NAME);
  let sqliteData: DataStore;
  try {
    sqliteData = openSqliteDataStore(env.DATABASE_NAME);
  } catch (error) {
    // Boot retries the opening (connect-stores.ts): an attempt that fails halfway must not keep the main file open.
    void main.close();
    throw error;
  }
  // A single node is the data store's only writer, so session rows can be served from memory (write-through);
  // with several nodes, leases are written by others and every read must see them, and with API_THREAD the API's
  // thread writes sessions the host's thread reads, and the reverse (a send is refused unless the row says ready).
  const data =
    env.MULTI_NODE || env.API_THREAD
      ? sqliteData
      : { ...sqliteData, sessions: new CachingSessionStore(sqliteData.sessions, SESSION_CACHE_TTL_MS) };
  const queues = openEmbeddedQueues(path.join(env.DATA_DIR, 'queue.sqlite'), {
    commands: {
      fifo: true,
      visibilityTimeoutSeconds: env.COMMAND_VISIBILITY_TIMEOUT_S,
      maxReceiveCount: env.COMMAND_MAX_RECEIVES,
      deadLetterQueue: 'commandsDead',
    },
    commandsDead: { fifo: true, visibilityTimeoutSeconds: env.COMMAND_VISIBILITY_TIMEOUT_S },
    // Webhook jobs (QUEUE_ENABLED=true); opening them costs nothing when the inline dispatcher is used instead.
    webhooks: {
      fifo: false,
      visibilityTimeoutSeconds: env.WEBHOOK_VISIBILITY_TIMEOUT_S,
      maxReceiveCount: env.WEBHOOK_MAX_RECEIVES,
      deadLetterQueue: 'webhooksDead',
    },
    webhooksDead: { fifo: false, visibilityTimeoutSeconds: env.WEBHOOK_VISIBILITY_TIMEOUT_S },
  });
  return {
    main,
    data,
    commandQueue: queues.queues.commands,
    webhookQueue: queues.queues.webhooks,
    dynamoDbAuthState: (): never => {
      throw new Error('AUTH_STATE_STORE=dynamodb needs DEPLOYMENT_MODE=aws');
    },
    async close() {
      await queues.close();
      await data.close();
      await main.close();
    },
  };
}
