/**
 * The route manifest is the one list of routes: serverless.yml gives each resource group's function exactly the
 * HTTP events of its routes (the group marked `catchAll`, docs, also takes the catch-all `*`, which answers 405 or
 * 404), every route is unique, and each resource handler is built from the manifest's routes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { API_RESOURCES, allRoutes, type ResourceGroup } from '#functions/manifest.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

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
