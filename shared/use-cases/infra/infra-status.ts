import type { Env } from '#shared/config/env.js';
import type { EngineKind } from '#shared/domain/engine-capabilities.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { checkReadiness } from '#shared/use-cases/health/readiness.js';

/** GET /api/infra/status: what runs where, adapted from OpenWA's infra status to this gateway's parts. */
export interface InfraStatus {
  deploymentMode: 'embedded' | 'aws';
  version: string;
  /** The two stores (SQLite files or DynamoDB tables), each probed as readiness does. */
  database: { type: 'sqlite' | 'dynamodb'; main: 'up' | 'down'; data: 'up' | 'down' };
  /** The command and webhook queues: SQLite-backed in-process, or SQS; `webhooks.enabled` is QUEUE_ENABLED. */
  queue: { type: 'embedded' | 'sqs'; webhooks: { enabled: boolean } };
  storage: { type: 'local' | 's3' };
  engine: { type: EngineKind; activeSessions: number };
}

/** The deployment's parts and whether its stores answer. */
export async function infraStatus(
  deps: Pick<CoreDeps, 'main' | 'data' | 'host' | 'engine'> & {
    env: Pick<Env, 'DEPLOYMENT_MODE' | 'QUEUE_ENABLED' | 'STORAGE_TYPE'>;
    version: string;
  },
): Promise<InfraStatus> {
  const aws = deps.env.DEPLOYMENT_MODE === 'aws';
  const [readiness, host] = await Promise.all([checkReadiness(deps), deps.host.stats()]);
  return {
    deploymentMode: deps.env.DEPLOYMENT_MODE,
    version: deps.version,
    database: {
      type: aws ? 'dynamodb' : 'sqlite',
      main: readiness.details.mainDatabase.status,
      data: readiness.details.dataDatabase.status,
    },
    queue: { type: aws ? 'sqs' : 'embedded', webhooks: { enabled: deps.env.QUEUE_ENABLED === true } },
    storage: { type: deps.env.STORAGE_TYPE },
    engine: { type: deps.engine, activeSessions: host.activeEngines },
  };
}
