/**
 * Every route that declares an engine capability answers, through its resource handler on each engine kind, the
 * status the hand-written table says (tests/helpers/capability-routes.ts): 501 ENGINE_UNSUPPORTED naming the kind
 * and the capability before any host or the command queue is reached, or the route's own answer once the host has
 * been asked. A route whose use case forgets the check, checks another capability, or whose capability moves in the
 * capability table fails here, and so does a route that declares a capability without a row in the table. The
 * OpenAPI document describes exactly these 501s.
 */

import { describe, expect, it } from '@jest/globals';
import type { Context } from 'aws-lambda';
import { installDeps } from '#functions/deps.js';
import { buildOpenApiDocument } from '#functions/docs/openapi.js';
import { createFunctionDeps } from '#functions/function-deps.js';
import { createResourceHandler } from '#functions/http/http-handler.js';
import type { AnyRoute } from '#functions/http/route.js';
import { API_RESOURCES, allRoutes } from '#functions/manifest.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import { createMemoryDataStore, createMemoryMainStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { loadEnv } from '#shared/config/env.js';
import {
  capabilityRow,
  ENGINE_KINDS,
  type EngineCapability,
  type EngineKind,
} from '#shared/domain/engine-capabilities.js';
import { createMetrics } from '#shared/observability/metrics.js';
import type { HostGateway } from '#shared/ports/host-gateway.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { OutgoingMessage } from '#shared/ports/queue.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { generateApiKey, hashApiKey } from '#shared/security/secrets.js';
import { anApiKey, aSession } from '#tests/helpers/builders.js';
import { CAPABILITY_ROUTES, type CapabilityRouteRow, requestOf } from '#tests/helpers/capability-routes.js';
import { lambdaEvent } from '#tests/helpers/lambda-event.js';
import { TestClock } from '#tests/helpers/test-clock.js';

type CapabilityRoute = AnyRoute & { capability: EngineCapability };

const capabilityRoutes = allRoutes().filter((route): route is CapabilityRoute => !!route.capability);
const name = (route: AnyRoute) => `${route.method} ${route.path}`;
const rows = Object.entries(CAPABILITY_ROUTES);
const cases = rows.flatMap(([route, row]) =>
  ENGINE_KINDS.map((kind) => [route, kind, row.status[kind], row] as const),
);

/** The command queue, remembering whether anything was enqueued. */
class RecordingQueue extends MemoryQueue {
  sent = 0;
  override async send(message: OutgoingMessage) {
    this.sent++;
    return super.send(message);
  }
}

/** The route declaring `METHOD path`. */
function routeNamed(route: string): CapabilityRoute {
  const found = capabilityRoutes.find((candidate) => name(candidate) === route);
  if (!found) throw new Error(`no route ${route} declares a capability`);
  return found;
}

/**
 * A row's request through its route's resource handler, on memory stores and the given engine kind, with the
 * row's session and an admin key. The host gateway and the command queue only record that they were reached; the
 * host carries every operation out.
 */
async function callOn(engine: EngineKind, routeName: string, row: CapabilityRouteRow) {
  const clock = new TestClock();
  const main = createMemoryMainStore();
  const data = createMemoryDataStore();
  const key = generateApiKey();
  await main.apiKeys.create(anApiKey({ keyHash: hashApiKey(key), role: 'admin' }));
  const session = aSession({ status: row.session });
  await data.sessions.create(session);
  const hostCalls: string[] = [];
  const host: HostGateway = {
    call: async (operation) => {
      hostCalls.push(operation);
      return {} as never;
    },
    stats: async () => ({ activeEngines: 0 }),
  };
  const queue = new RecordingQueue({ name: 'commands', fifo: true, visibilityTimeoutSeconds: 30 });
  const deps = createFunctionDeps({
    clock,
    logger: silentLogger,
    main,
    data,
    media: new MemoryMediaStorage(),
    commands: new CommandQueue(queue),
    host,
    outcomes: new InProcessMessageOutcomes(),
    audit: new AuditRecorder(main.audit, clock, silentLogger, createMetrics()),
    env: loadEnv({}),
    version: 'test',
    metrics: createMetrics(),
  });
  installDeps({ ...deps, engine });

  const route = routeNamed(routeName);
  const group = Object.values(API_RESOURCES).find((g) => g.routes.includes(route));
  if (!group) throw new Error(`${routeName} is in no resource group`);
  const { method, path, query } = requestOf(routeName, row, session.id);
  const res = await createResourceHandler(group.routes)(
    lambdaEvent({ method, path, rawQueryString: query, key, body: row.body, now: clock.now() }),
    {} as Context,
  );
  return {
    status: res.statusCode,
    body: JSON.parse(res.body || '{}') as { code?: string; details?: unknown },
    reached: { hostCalls, enqueued: queue.sent },
  };
}

describe('routes that need an engine capability', () => {
  it('each have a row in the table, naming the capability the route declares', () => {
    const declared = Object.fromEntries(capabilityRoutes.map((route) => [name(route), route.capability]));
    const tabled = Object.fromEntries(rows.map(([route, row]) => [route, row.capability]));

    expect(tabled).toEqual(declared);
    expect(Object.keys(declared)).toContain('POST /api/sessions/{id}/pairing-code');
  });

  it.each(cases)('%s on the %s engine answers %i', async (route, kind, status, row) => {
    const res = await callOn(kind, route, row);

    expect(res.status).toBe(status);
    if (status === 501) {
      expect(res.body).toMatchObject({
        code: 'ENGINE_UNSUPPORTED',
        details: { engine: kind, capability: row.capability },
      });
      expect(res.reached).toEqual({ hostCalls: [], enqueued: 0 });
    } else if (row.readsStore) {
      // Past the check it read the store (a chat list the host keeps): no host was asked.
      expect(res.reached).toEqual({ hostCalls: [], enqueued: 0 });
    } else {
      // Past the check, the operation went to a host: the answer is the route's, not a refusal on the way.
      expect(res.reached.hostCalls.length + res.reached.enqueued).toBeGreaterThan(0);
    }
  });
});

describe('the OpenAPI description of the 501s', () => {
  const document = buildOpenApiDocument(allRoutes(), 'test') as {
    paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
  };
  const responsesOf = (route: AnyRoute) => {
    const operation = document.paths[route.path]?.[route.method.toLowerCase()];
    if (!operation) throw new Error(`${name(route)} is not in the document`);
    return operation.responses;
  };

  it.each(rows)('%s documents a 501 naming the engines the table refuses', (route, row) => {
    const refusing = ENGINE_KINDS.filter((kind) => row.status[kind] === 501);
    const description = responsesOf(routeNamed(route))['501']?.description;

    if (refusing.length === 0) expect(description).toBeUndefined();
    else {
      // "ENGINE_UNSUPPORTED: the webjs, test-core engines cannot …"
      const [engines = '', summary] = (description ?? '').split(' cannot ');
      expect(summary).toBe(capabilityRow(row.capability).summary);
      const named = engines.replace(/^ENGINE_UNSUPPORTED: the /, '').replace(/ engines?$/, '');
      expect(named.split(', ')).toEqual(refusing);
    }
  });

  it('documents no 501 for a route that declares no capability', () => {
    const without = allRoutes().filter((route) => !route.capability);

    const with501 = without.filter((route) => '501' in responsesOf(route)).map(name);

    expect(with501).toEqual([]);
  });
});
