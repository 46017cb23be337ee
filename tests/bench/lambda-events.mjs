// What the bundle benchmark (lambda-bundles.mjs) asks each function on its cold start: an API Gateway v2 request, a
// scheduled event or an empty SQS batch; the MCP function again with its endpoint on (VARIANTS), presenting an admin
// key the benchmark stores first (seedAdminKey).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { importTypeScript } from '#scripts/offline-emulators.mjs';

const SESSION_ID = '0b6e6a52-1f7e-4a38-9d6e-3d1b2f0c9a11';
/** What each function is asked on its cold start: unauthenticated requests answer 401 after the whole stack ran. */
export const EVENTS = {
  sessions: { method: 'GET', path: '/api/sessions', expect: 401 },
  messages: { method: 'GET', path: `/api/sessions/${SESSION_ID}/messages`, expect: 401 },
  webhooks: { method: 'GET', path: `/api/sessions/${SESSION_ID}/webhooks`, expect: 401 },
  automation: { method: 'GET', path: `/api/sessions/${SESSION_ID}/automation-rules`, expect: 401 },
  templates: { method: 'GET', path: `/api/sessions/${SESSION_ID}/templates`, expect: 401 },
  auth: { method: 'GET', path: '/api/auth/api-keys', expect: 401 },
  audit: { method: 'GET', path: '/api/audit', expect: 401 },
  contacts: { method: 'GET', path: `/api/sessions/${SESSION_ID}/contacts`, expect: 401 },
  chats: { method: 'GET', path: `/api/sessions/${SESSION_ID}/chats`, expect: 401 },
  groups: { method: 'GET', path: `/api/sessions/${SESSION_ID}/groups`, expect: 401 },
  labels: { method: 'GET', path: `/api/sessions/${SESSION_ID}/labels`, expect: 401 },
  statuses: { method: 'GET', path: `/api/sessions/${SESSION_ID}/status`, expect: 401 },
  health: { method: 'GET', path: '/api/health', expect: 200 },
  docs: { method: 'GET', path: '/api/openapi.json', expect: 200 },
  maintenance: { scheduled: true },
  // An empty batch: the cold start builds the delivery's dependencies and answers no failures, sending nothing.
  webhookDelivery: { sqs: true },
  // Deployed with MCP_ENABLED false (serverless.yml's default): it reads its configuration and answers 404, loading
  // neither the MCP SDK nor the store clients (VARIANTS measure it with the endpoint on).
  mcp: { method: 'POST', path: '/mcp', expect: 404 },
};
/** Planned Lambdas that later issues add (DESIGN §5); reported as absent until serverless.yml defines them. */
export const PLANNED = {};

/** A JSON-RPC request to POST /mcp with the bench's admin key, as the SDK's client sends it. */
const mcpRequest = (method, params) => ({
  method: 'POST',
  path: '/mcp',
  expect: 200,
  adminKey: true,
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
});

/**
 * A function measured again with other stack parameters, reported as `<function> (<variant>)`: the MCP function with
 * mcpEnabled, answering an agent's first request (initialize) on a cold instance, and a tools listing on another
 * one (every tool's schemas made; the write tools too, with mcpReadonly false).
 */
export const VARIANTS = {
  'mcp (enabled: initialize)': {
    of: 'mcp',
    env: { MCP_ENABLED: 'true' },
    ...mcpRequest('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'lambda-bundles-bench', version: '1.0.0' },
    }),
  },
  'mcp (enabled: tools/list)': {
    of: 'mcp',
    env: { MCP_ENABLED: 'true', MCP_READONLY: 'false' },
    ...mcpRequest('tools/list'),
  },
};

function apiGatewayEvent({ method, path: rawPath, headers = {}, body }, adminKey) {
  const now = new Date();
  return {
    version: '2.0',
    routeKey: `${method} ${rawPath}`,
    rawPath,
    rawQueryString: '',
    headers: {
      host: 'bench.execute-api.local',
      'user-agent': 'lambda-bundles-bench',
      accept: '*/*',
      ...headers,
      ...(adminKey ? { authorization: `Bearer ${adminKey}` } : {}),
    },
    requestContext: {
      accountId: '000000000000',
      apiId: 'bench',
      domainName: 'bench.execute-api.local',
      domainPrefix: 'bench',
      http: {
        method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.7',
        userAgent: 'lambda-bundles-bench',
      },
      requestId: `bench-${process.hrtime.bigint()}`,
      routeKey: `${method} ${rawPath}`,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: false,
  };
}

const scheduledEvent = () => ({
  version: '0',
  id: 'bench',
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '000000000000',
  time: new Date().toISOString(),
  region: 'us-east-1',
  resources: [],
  detail: {},
});

/** The event `spec` (an entry of EVENTS or VARIANTS) describes; `adminKey` is presented where it asks for one. */
export function eventFor(spec, adminKey) {
  if (spec.scheduled) return scheduledEvent();
  if (spec.sqs) return { Records: [] };
  return apiGatewayEvent(spec, spec.adminKey ? adminKey : undefined);
}

/**
 * Stores an admin key `plaintext` in the main table of the emulators' prefix, as the host's bootstrap does (the
 * store's own code).
 */
export async function seedAdminKey(emulators, plaintext) {
  const { openDynamoDbMainStore, newKeyRecord } = await importTypeScript([
    "export { openDynamoDbMainStore } from './shared/adapters/dynamodb/dynamodb-stores.ts';",
    "export { newKeyRecord } from './shared/use-cases/api-keys/manage-api-keys.ts';",
  ]);
  const client = new DynamoDBClient({
    endpoint: emulators.dynamodbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const main = openDynamoDbMainStore({ client, tablePrefix: emulators.tablePrefix });
  try {
    await main.apiKeys.create(
      newKeyRecord(plaintext, { name: 'Bench admin key', role: 'admin' }, new Date()),
    );
  } finally {
    client.destroy();
  }
}
