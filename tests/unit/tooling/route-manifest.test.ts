/**
 * The route manifest is the one list of routes: the HTTP functions serverless deploys are generated from it
 * (functions/http-functions.ts, with functions/deployment.ts's facts), each resource group's function taking
 * exactly the HTTP events of its routes (the group marked `catchAll`, docs, also the catch-all `*`, which answers
 * 405 or 404), and osls resolving serverless.yml sees those functions. Every route is unique, and each resource
 * handler is built from the manifest's routes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { GROUP_DEPLOYMENT } from '#functions/deployment.js';
import { CATCH_ALL_EVENT, type HttpFunction, httpFunctions, MCP_PATH } from '#functions/http-functions.js';
import { API_RESOURCES, allRoutes, type ResourceGroup, type ResourceName } from '#functions/manifest.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const groups = Object.entries(API_RESOURCES) as [ResourceName, ResourceGroup][];
const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** The functions whose `httpApi` events include `event`, by name: a name twice if it has the event twice. */
function functionsWithEvent(functions: Record<string, { events: object[] }>, event: string): string[] {
  return Object.entries(functions).flatMap(([name, fn]) =>
    fn.events.filter((e) => 'httpApi' in e && e.httpApi === event).map(() => name),
  );
}

describe('the HTTP functions generated from the route manifest', () => {
  const functions = httpFunctions();

  it('are one function per resource group, named by its key, running its handler module, and the MCP endpoint', () => {
    expect(Object.keys(functions)).toEqual([...groups.map(([name]) => name), 'mcp']);
    expect(functions.mcp).toMatchObject({
      handler: 'functions/mcp/handler.handler',
      role: 'McpRole',
      events: [
        { httpApi: `POST ${MCP_PATH}` },
        { httpApi: `GET ${MCP_PATH}` },
        { httpApi: `DELETE ${MCP_PATH}` },
      ],
    });
    expect(fs.existsSync(path.join(ROOT, 'functions', 'mcp', 'handler.ts'))).toBe(true);
    for (const [name] of groups) {
      expect(functions[name].handler).toBe(`functions/${name}/handler.handler`);
      expect(fs.existsSync(path.join(ROOT, 'functions', name, 'handler.ts'))).toBe(true);
    }
  });

  it("give every route of the manifest to its group's function, as one httpApi event", () => {
    for (const [name, group] of groups) {
      for (const route of group.routes.map(routeKey)) {
        expect({ route, functions: functionsWithEvent(functions, route) }).toEqual({
          route,
          functions: [name],
        });
      }
    }
  });

  it('have no httpApi event but the routes and the catch-all', () => {
    for (const [name, group] of groups) {
      const expected = group.routes.map(routeKey);
      if (group.catchAll) expected.push(CATCH_ALL_EVENT);
      expect({ name, events: functions[name].events }).toEqual({
        name,
        events: expected.map((httpApi) => ({ httpApi })),
      });
    }
  });

  it('give the catch-all event to the catch-all group only, and the manifest has exactly one', () => {
    const catchAll = groups.filter(([, group]) => group.catchAll).map(([name]) => name);
    expect(catchAll).toHaveLength(1);
    expect(functionsWithEvent(functions, CATCH_ALL_EVENT)).toEqual(catchAll);
  });

  it("deploy each group with its description, role, timeout and, if it calls a host, the VPC's private subnets", () => {
    for (const [name] of groups) {
      const facts = GROUP_DEPLOYMENT[name];
      const fn: HttpFunction = functions[name];
      expect(fn.description).toBe(facts.description);
      expect(fn.role).toBe(`${name.charAt(0).toUpperCase()}${name.slice(1)}Role`);
      expect(fn.role).toBe(facts.role);
      expect(fn.timeout).toBe(facts.timeout);
      // API Gateway answers 503 after 30 s, whatever the function does.
      expect(fn.timeout ?? 10).toBeLessThan(30);
      expect({ name, vpc: fn.vpc }).toEqual({
        name,
        vpc: facts.callsHost
          ? {
              securityGroupIds: [{ Ref: 'LambdaSecurityGroup' }],
              subnetIds: [{ Ref: 'PrivateSubnetA' }, { Ref: 'PrivateSubnetB' }],
            }
          : undefined,
      });
    }
  });
});

/** What osls makes of serverless.yml once its variables are resolved (`sls print`). */
interface ResolvedConfiguration {
  functions: Record<string, { name: string; events: object[] }>;
  resources: { Resources: Record<string, { Type: string }> };
}

describe('serverless.yml as osls resolves it', () => {
  let resolved: ResolvedConfiguration;

  beforeAll(async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'node_modules/osls/bin/serverless.js'), 'print', '--format', 'json', '--stage', 'dev'],
      {
        cwd: ROOT,
        env: { ...process.env, SLS_TELEMETRY_DISABLED: '1', SLS_NOTIFICATIONS_MODE: 'off' },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 120_000,
      },
    );
    resolved = JSON.parse(stdout) as ResolvedConfiguration;
  }, 130_000);

  it('has the generated functions, as generated, beside the functions no route reaches', () => {
    const generated = httpFunctions();
    for (const [name, fn] of Object.entries(generated)) {
      expect(resolved.functions[name]).toEqual({ ...fn, name: `waygate-dev-${name}` });
    }
    const withHttpEvents = Object.entries(resolved.functions)
      .filter(([, fn]) => fn.events.some((event) => 'httpApi' in event))
      .map(([name]) => name);
    expect(withHttpEvents).toEqual(Object.keys(generated));
    expect(Object.keys(resolved.functions)).toEqual([
      ...Object.keys(generated),
      'webhookDelivery',
      'maintenance',
    ]);
  });

  it("has each generated function's role and VPC resources", () => {
    const types = (names: string[]) => names.map((name) => resolved.resources.Resources[name]?.Type);
    for (const fn of Object.values(httpFunctions())) {
      expect(types([fn.role])).toEqual(['AWS::IAM::Role']);
      if (!fn.vpc) continue;
      expect(types(fn.vpc.securityGroupIds.map((ref) => ref.Ref))).toEqual(['AWS::EC2::SecurityGroup']);
      expect(types(fn.vpc.subnetIds.map((ref) => ref.Ref))).toEqual(['AWS::EC2::Subnet', 'AWS::EC2::Subnet']);
    }
  });
});

describe('the route manifest', () => {
  it('lists every route once', () => {
    const keys = allRoutes().map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
