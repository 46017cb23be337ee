/**
 * The route manifest is the one list of routes: serverless.yml gives each resource group's function exactly the
 * HTTP events of its routes (the group marked `catchAll`, docs, also takes the catch-all `*`, which answers 405 or
 * 404), every route is unique, and each resource handler is built from the manifest's routes. The generator of the
 * HTTP functions (functions/http-functions.ts, with functions/deployment.ts's facts) gives each group's function
 * exactly those events, its handler, role, timeout and VPC.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { GROUP_DEPLOYMENT } from '#functions/deployment.js';
import { CATCH_ALL_EVENT, type HttpFunction, httpFunctions } from '#functions/http-functions.js';
import { API_RESOURCES, allRoutes, type ResourceGroup, type ResourceName } from '#functions/manifest.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const groups = Object.entries(API_RESOURCES) as [ResourceName, ResourceGroup][];
const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** `functions:` of serverless.yml: each function's `- httpApi: …` events, as written. */
function httpEventsByFunction(): Map<string, string[]> {
  const lines = fs.readFileSync(path.join(ROOT, 'serverless.yml'), 'utf8').split('\n');
  const events = new Map<string, string[]>();
  let inFunctions = false;
  let current: string | null = null;
  for (const line of lines) {
    if (/^\S/.test(line)) {
      inFunctions = line.startsWith('functions:');
      current = null;
      continue;
    }
    if (!inFunctions) continue;
    const name = /^ {2}([\w-]+):\s*$/.exec(line)?.[1];
    if (name) {
      current = name;
      events.set(name, []);
      continue;
    }
    const event = /^\s+- httpApi:\s*(.+?)\s*$/.exec(line)?.[1];
    if (event && current) events.get(current)?.push(event.replace(/^'(.*)'$/, '$1'));
  }
  return events;
}

/** The functions whose `httpApi` events include `event`, by name: a name twice if it has the event twice. */
function functionsWithEvent(functions: Record<string, { events: object[] }>, event: string): string[] {
  return Object.entries(functions).flatMap(([name, fn]) =>
    fn.events.filter((e) => 'httpApi' in e && e.httpApi === event).map(() => name),
  );
}

describe('the HTTP functions generated from the route manifest', () => {
  const functions = httpFunctions();

  it('are one function per resource group, named by its key, running its handler module', () => {
    expect(Object.keys(functions)).toEqual(groups.map(([name]) => name));
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

describe('the route manifest', () => {
  it("is serverless.yml's HTTP events, function by function", () => {
    const declared = httpEventsByFunction();
    for (const [name, group] of Object.entries(API_RESOURCES) as [string, ResourceGroup][]) {
      const expected = group.routes.map((route) => `${route.method} ${route.path}`);
      if (group.catchAll) expected.push('*');
      expect({ function: name, events: [...(declared.get(name) ?? [])].sort() }).toEqual({
        function: name,
        events: expected.sort(),
      });
    }
  });

  it('gives the catch-all route to exactly one resource group', () => {
    const groups = Object.values(API_RESOURCES) as ResourceGroup[];
    expect(groups.filter((group) => group.catchAll)).toHaveLength(1);
  });

  it('has no HTTP event in serverless.yml that no resource group serves', () => {
    const withEvents = [...httpEventsByFunction()].filter(([, events]) => events.length > 0).map(([n]) => n);
    expect(withEvents.sort()).toEqual(Object.keys(API_RESOURCES).sort());
  });

  it('lists every route once, with a handler module per resource group', () => {
    const keys = allRoutes().map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const name of Object.keys(API_RESOURCES)) {
      expect(fs.existsSync(path.join(ROOT, 'functions', name, 'handler.ts'))).toBe(true);
    }
  });
});
