/**
 * serverless.yml's HTTP functions, generated: one function per resource group of the route manifest, named by its
 * key, with an `httpApi` event per route (and API Gateway's `$default` route, `*`, for the catch-all group) and
 * the deployment facts of functions/deployment.ts. serverless.yml takes them from scripts/http-functions.cjs, which
 * runs this while serverless resolves its variables, so a route added to the manifest is deployed with no edit
 * there.
 */
import { GROUP_DEPLOYMENT } from './deployment.js';
import { API_RESOURCES, type ResourceGroup, type ResourceName } from './manifest.js';

/** A CloudFormation reference to a resource of serverless.yml (YAML's `!Ref`). */
interface Ref {
  Ref: string;
}

/** One function as serverless.yml's `functions:` declares it. */
export interface HttpFunction {
  handler: string;
  description: string;
  role: string;
  timeout?: number;
  vpc?: { securityGroupIds: Ref[]; subnetIds: Ref[] };
  events: { httpApi: string }[];
}

/** The catch-all event: API Gateway's `$default` route, what no route claims (manifest.ts `catchAll`). */
export const CATCH_ALL_EVENT = '*';

/**
 * Where the functions that call a host run: the private subnets, in the security group the hosts admit on their
 * RPC port (serverless.yml's resources). A copy each, as serverless may change a function's configuration in place.
 */
const hostVpc = (): NonNullable<HttpFunction['vpc']> => ({
  securityGroupIds: [{ Ref: 'LambdaSecurityGroup' }],
  subnetIds: [{ Ref: 'PrivateSubnetA' }, { Ref: 'PrivateSubnetB' }],
});

function httpFunction(name: ResourceName, group: ResourceGroup): HttpFunction {
  const { description, role, timeout, callsHost } = GROUP_DEPLOYMENT[name];
  const events = group.routes.map((route) => ({ httpApi: `${route.method} ${route.path}` }));
  // The catch-all group answers 405 with Allow for a known path asked with another method (its bundle holds every
  // route of the manifest already), anything else 404.
  if (group.catchAll) events.push({ httpApi: CATCH_ALL_EVENT });
  return {
    handler: `functions/${name}/handler.handler`,
    description,
    role,
    ...(timeout === undefined ? {} : { timeout }),
    ...(callsHost ? { vpc: hostVpc() } : {}),
    events,
  };
}

/** The path of the agent-tool endpoint (functions/mcp/), which is no route of the manifest. */
export const MCP_PATH = '/mcp';

/**
 * The MCP endpoint's function: POST, and GET and DELETE, which a stateless server answers 405 (with `Allow`), as the
 * embedded gateway's does. It calls hosts (the engine tools), so it runs in the VPC.
 */
function mcpFunction(): HttpFunction {
  return {
    handler: 'functions/mcp/handler.handler',
    description:
      "The MCP agent-tool endpoint (POST /mcp), when MCP_ENABLED; the tools call the routes' use cases",
    role: 'McpRole',
    timeout: 29,
    vpc: hostVpc(),
    events: ['POST', 'GET', 'DELETE'].map((method) => ({ httpApi: `${method} ${MCP_PATH}` })),
  };
}

/** Every resource group's function, by name, in manifest order, and the MCP endpoint's (`mcp`). */
export function httpFunctions(): Record<ResourceName | 'mcp', HttpFunction> {
  const entries = (Object.entries(API_RESOURCES) as [ResourceName, ResourceGroup][]).map(
    ([name, group]) => [name, httpFunction(name, group)] as const,
  );
  return { ...Object.fromEntries(entries), mcp: mcpFunction() } as Record<ResourceName | 'mcp', HttpFunction>;
}
