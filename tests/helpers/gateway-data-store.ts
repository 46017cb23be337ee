/**
 * The data store and media archive a test gateway runs on, opened beside it: the SQLite file and media folder
 * (embedded) or the DynamoDB tables of its prefix and its S3 bucket (aws). For what no route can produce yet
 * (delivery-failure records are written by deliveries; media is archived by a host from the network) and for
 * checking what a route must have removed; everything else goes through HTTP.
 */
import { openAwsAdapters } from '#shared/adapters/aws/open-aws-adapters.js';
import { openMediaStorage } from '#shared/adapters/open-media-storage.js';
import { openSqliteDataStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import { loadEnv } from '#shared/config/env.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import type { TestGateway } from './test-gateway.js';

/** Runs `use` on the gateway's data store, closed afterwards. */
export async function withGatewayDataStore<T>(
  gw: TestGateway,
  use: (data: DataStore) => Promise<T>,
): Promise<T> {
  const env = loadEnv(gw.env);
  if (env.DEPLOYMENT_MODE === 'aws') {
    const aws = openAwsAdapters(env);
    try {
      return await use(aws.data);
    } finally {
      await aws.close();
    }
  }
  const data = openSqliteDataStore(env.DATABASE_NAME);
  try {
    return await use(data);
  } finally {
    await data.close();
  }
}

/** Runs `use` on the gateway's media archive (its folder, or its bucket), closed afterwards. */
export async function withGatewayMedia<T>(
  gw: TestGateway,
  use: (media: MediaStorage) => Promise<T>,
): Promise<T> {
  const media = openMediaStorage(loadEnv(gw.env));
  try {
    return await use(media);
  } finally {
    await media.close();
  }
}
