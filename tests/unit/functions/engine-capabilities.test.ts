/**
 * Generated from the route manifest and the capability table: every route that declares an engine capability
 * answers 501 ENGINE_UNSUPPORTED (naming that capability) through its resource handler for every engine kind the
 * table says lacks it, before any host or the command queue is reached, and does not answer 501 for the kinds that
 * have it. A route whose use case forgets the check, or checks another capability, fails here. The OpenAPI
 * document describes exactly these 501s.
 */

import { describe, expect, it } from '@jest/globals';
import type { Context } from 'aws-lambda';
import type { z } from 'zod';
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
  enginesLacking,
} from '#shared/domain/engine-capabilities.js';
import { createMetrics } from '#shared/observability/metrics.js';
import type { HostGateway } from '#shared/ports/host-gateway.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { OutgoingMessage } from '#shared/ports/queue.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { generateApiKey, hashApiKey } from '#shared/security/secrets.js';
import { anApiKey, aSession } from '#tests/helpers/builders.js';
import { lambdaEvent } from '#tests/helpers/lambda-event.js';
import { TestClock } from '#tests/helpers/test-clock.js';

type CapabilityRoute = AnyRoute & { capability: EngineCapability };

const capabilityRoutes = allRoutes().filter((route): route is CapabilityRoute => !!route.capability);
const name = (route: AnyRoute) => `${route.method} ${route.path}`;
const cases = (having: boolean) =>
  capabilityRoutes.flatMap((route) =>
    ENGINE_KINDS.filter((kind) => enginesLacking(route.capability).includes(kind) !== having).map(
      (kind) => [name(route), kind, route] as const,
    ),
  );

/** The command queue, remembering whether anything was enqueued. */
class RecordingQueue extends MemoryQueue {
  sent = 0;
  override async send(message: OutgoingMessage) {
    this.sent++;
    return super.send(message);
  }
}

/** The example a route's schema carries (`.meta({ examples })`), checked against the schema. */
function exampleOf(route: AnyRoute, schema: z.ZodType): unknown {
  const examples = schema.meta()?.examples;
  const example = Array.isArray(examples) ? examples[0] : undefined;
  if (example === undefined) {
    throw new Error(`${name(route)} needs an engine capability: give its schema .meta({ examples: [...] })`);
  }
  schema.parse(example);
  return example;
}

/**
 * The route's resource handler, on memory stores and the given engine kind, with a session that exists and an
 * admin key. The host gateway and the command queue only record that they were reached.
 */
async function gatewayWith(engine: EngineKind) {
  const clock = new TestClock();
  const main = createMemoryMainStore();
  const data = createMemoryDataStore();
  const key = generateApiKey();
  await main.apiKeys.create(anApiKey({ keyHash: hashApiKey(key), role: 'admin' }));
  const session = aSession({ status: 'qr_ready' });
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

  const call = async (route: AnyRoute) => {
    const group = Object.values(API_RESOURCES).find((g) => g.routes.includes(route));
    if (!group) throw new Error(`${name(route)} is in no resource group`);
    const path = route.path.replace(/\{(\w+)\}/g, (_, param: string) => {
      if (param === 'id' || param === 'sessionId') return session.id;
      throw new Error(`${name(route)}: no sample value for the path parameter {${param}}`);
    });
    const query = route.query ? (exampleOf(route, route.query) as Record<string, string>) : {};
    const res = await createResourceHandler(group.routes)(
      lambdaEvent({
        method: route.method,
        path,
        rawQueryString: new URLSearchParams(query).toString(),
        key,
        body: route.body ? exampleOf(route, route.body) : undefined,
        now: clock.now(),
      }),
      {} as Context,
    );
    return {
      status: res.statusCode,
      body: JSON.parse(res.body || '{}') as { code?: string; details?: unknown },
    };
  };
  return { call, hostCalls, queue };
}

describe('routes that need an engine capability', () => {
  it('exist (the table drives at least one route)', () => {
    expect(capabilityRoutes.map(name)).toContain('POST /api/sessions/{id}/pairing-code');
  });

  it.each(cases(false))('%s answers 501 on the %s engine without reaching a host', async (_, kind, route) => {
    const { call, hostCalls, queue } = await gatewayWith(kind);

    const res = await call(route);

    expect(res).toEqual({
      status: 501,
      body: expect.objectContaining({
        code: 'ENGINE_UNSUPPORTED',
        details: { engine: kind, capability: route.capability },
      }),
    });
    expect({ hostCalls, enqueued: queue.sent }).toEqual({ hostCalls: [], enqueued: 0 });
  });

  it.each(cases(true))('%s is not refused on the %s engine', async (_, kind, route) => {
    const { call } = await gatewayWith(kind);

    const res = await call(route);

    expect(res.status).not.toBe(501);
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

  it.each(capabilityRoutes.map((route) => [name(route), route] as const))(
    '%s documents a 501 naming the engines without its capability',
    (_, route) => {
      const lacking = enginesLacking(route.capability);
      const description = responsesOf(route)['501']?.description;

      if (lacking.length === 0) expect(description).toBeUndefined();
      else {
        const [engines, summary] = (description ?? '').split(' cannot ');
        expect(summary).toBe(capabilityRow(route.capability).summary);
        const named = ENGINE_KINDS.filter((kind) => new RegExp(`\\b${kind}\\b`).test(engines ?? ''));
        expect(named).toEqual(lacking);
      }
    },
  );

  it('documents no 501 for a route that declares no capability', () => {
    const without = allRoutes().filter((route) => !route.capability);

    const with501 = without.filter((route) => '501' in responsesOf(route)).map(name);

    expect(with501).toEqual([]);
  });
});
