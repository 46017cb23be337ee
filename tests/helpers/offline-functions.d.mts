/** Declarations of offline-functions.mjs (plain JS, loaded by the api-aws global setup too). */
import type { SqsQueueUrls } from '#shared/adapters/sqs/sqs-queues.js';

/** Where a deployment's functions find its stores and host. */
export interface FunctionsDeployment {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  s3Endpoint: string;
  tablePrefix: string;
  queuePrefix: string;
  mediaBucket: string;
  hostRpcToken: string;
}

/** A running serverless offline child of one deployment. */
export interface RunningFunctions {
  url: string;
  queues: SqsQueueUrls;
  /** False once the child has exited. */
  alive(): boolean;
  stop(): Promise<void>;
}

/** A new deployment's table and queue prefixes, media bucket and host RPC token. */
export interface DeploymentNames {
  tablePrefix: string;
  queuePrefix: string;
  mediaBucket: string;
  hostRpcToken: string;
}

export declare function sameEnv(a: Record<string, string>, b: Record<string, string>): boolean;
export declare function deploymentNames(tag: string): DeploymentNames;
export declare function freePort(): Promise<number>;
export declare function generateAdminKey(): string;
export declare function functionsEnv(own?: Record<string, string>): Record<string, string>;
export declare function startFunctions(
  deployment: FunctionsDeployment,
  own?: Record<string, string>,
): Promise<RunningFunctions>;
