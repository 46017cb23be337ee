/**
 * A client generated from the OpenAPI document cannot send what the stack refuses: bodies made by mutating valid
 * ones (a field set to a value from a pool of the rules' edge cases, removed, added from another shape, a NUL put
 * into a string, a list item repeated) are checked against the document's request schema (ajv 2020-12 with its
 * formats) and against what the stack does with a body (parse-request.ts: JSON; route-call.ts: NUL, the route's schema). Every body
 * the document accepts, the stack must accept. The other way round the document may be stricter (a URL the WHATWG
 * parser takes but RFC 3986's `format: uri` does not), so that is only counted.
 */
import { describe, expect, it } from '@jest/globals';
import { buildOpenApiDocument } from '#functions/docs/openapi.js';
import { assertSafeBody, parseInput, parseJsonBody, requireBody } from '#functions/http/parse-request.js';
import type { AnyRoute } from '#functions/http/route.js';
import { allRoutes } from '#functions/manifest.js';
import { ValidationError } from '#shared/errors/app-error.js';
import { compileRequestCheck, type OpenApiDocument } from '#tests/helpers/openapi-conformance.js';

const CHAT = '15550001111@c.us';
const URL_OK = 'https://files.example/a.png';
const UUID = '10000000-0000-4000-8000-000000000000';
const condition = { field: 'body', operator: 'contains', value: 'order' };

/** Valid bodies of the routes whose rules the document states, by `METHOD path`. */
const SEEDS: Record<string, unknown[]> = {
  'POST /api/sessions': [{ name: 'seed-session', config: { note: 'x', nested: { list: ['a'] } } }],
  'POST /api/sessions/{sessionId}/messages/send-image': [
    { chatId: CHAT, url: URL_OK, caption: 'hi', mentions: [CHAT] },
    { chatId: CHAT, data: 'QUJD', mimetype: 'image/png' },
  ],
  'POST /api/sessions/{sessionId}/messages/send-document': [
    { chatId: CHAT, url: URL_OK, filename: 'a.pdf', mimetype: 'application/pdf' },
  ],
  'POST /api/sessions/{sessionId}/messages/send-audio': [
    { chatId: CHAT, data: 'QUJD', mimetype: 'audio/ogg', ptt: true },
  ],
  'POST /api/sessions/{sessionId}/messages/send-sticker': [{ chatId: CHAT, url: URL_OK }],
  'POST /api/sessions/{sessionId}/messages/send-template': [
    { chatId: CHAT, templateId: UUID, variables: { name: 'Ada' } },
    { chatId: CHAT, templateName: 'greeting' },
  ],
  'POST /api/sessions/{sessionId}/messages/send-bulk': [
    {
      batchId: 'b-1',
      messages: [
        { chatId: CHAT, type: 'text', content: { text: 'hi' } },
        { chatId: CHAT, type: 'image', content: { url: URL_OK, caption: 'x' } },
        { chatId: CHAT, type: 'document', content: { data: 'QUJD', mimetype: 'application/pdf' } },
      ],
    },
  ],
  'POST /api/sessions/{sessionId}/webhooks': [
    {
      url: URL_OK,
      secret: 'a-secret-of-16ch',
      events: ['message.ack', '*'],
      filters: { conditions: [condition] },
    },
  ],
  'PUT /api/sessions/{sessionId}/webhooks/{id}': [{ secret: '', headers: { 'X-A': 'b' }, active: false }],
  'POST /api/sessions/{sessionId}/automation-rules': [
    {
      name: 'rule',
      replyText: 'x',
      conditions: {
        conditions: [
          condition,
          { field: 'isGroup', operator: 'is', value: false },
          { field: 'type', operator: 'isNot', value: ['image'] },
        ],
      },
    },
  ],
  'PUT /api/sessions/{sessionId}/templates/{templateId}': [{ name: 'greeting', header: null }],
  'POST /api/auth/api-keys': [{ name: 'key', allowedSessions: [UUID], expiresAt: '2999-01-01T00:00:00Z' }],
  'PUT /api/auth/api-keys/{id}': [{ allowedIps: ['10.0.0.0/8'], expiresAt: null }],
};

/** Values the rules turn on: each is valid somewhere and invalid elsewhere. */
const POOL: unknown[] = [
  ...[
    '',
    ' ',
    'x',
    'a\u0000b',
    'x'.repeat(15),
    'x'.repeat(16),
    '🔑'.repeat(8),
    '🔑'.repeat(16),
    '?!…',
    '中文',
  ],
  ...[URL_OK, 'HTTPS://files.example/a', 'ftp://files.example/a', 'http:files.example', 'https://', '/rel'],
  ...['https://u:p@files.example/', 'https://files.example:8080/a?b#c', 'QUJD', 'not base64!', 'image/png'],
  ...'is isNot contains equals body isGroup type sender gif image message.ack *'.split(' '),
  ...[CHAT, '+4915111', UUID, 'greeting', '2001-01-01T00:00:00Z', '2999-01-01T00:00:00+02:00', '10.0.0.1'],
  ...[
    0,
    -1,
    1.5,
    3,
    1000,
    true,
    false,
    null,
    [],
    {},
    ['message.ack', 'message.ack'],
    ['image', 'gif'],
    [UUID, UUID],
  ],
];
const KEYS = 'url data mimetype templateId templateName secret events caseSensitive x'.split(' ');

/** A small seeded generator (mulberry32), so a failure names a case that can be run again. */
function random(seed: number) {
  let state = seed >>> 0;
  return (n: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n) | 0;
  };
}

type Json = Record<string, unknown> | unknown[];
const isContainer = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** Every object and array inside `value`, itself included. */
function containers(value: unknown, found: Json[] = []): Json[] {
  if (!isContainer(value)) return found;
  found.push(value);
  for (const inner of Object.values(value)) containers(inner, found);
  return found;
}

/** One random change to one object or array of `body` (in place). */
function mutate(body: unknown, pick: (n: number) => number): void {
  const all = containers(body);
  const target = all[pick(all.length)] as Json;
  const keys = Object.keys(target);
  const key = keys.length ? (keys[pick(keys.length)] as string) : '0';
  const record = target as Record<string, unknown>;
  const anyValue = () => structuredClone(POOL[pick(POOL.length)]);
  /** A value some seed gives a field of this name (valid there), else one from the pool. */
  const seedValue = (name: string) => {
    const values = SEED_VALUES.get(name) ?? [];
    return structuredClone(values.length ? values[pick(values.length)] : anyValue());
  };
  switch (pick(5)) {
    case 0:
      record[key] = anyValue();
      break;
    case 1:
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete record[key];
      break;
    case 2: {
      const name = KEYS[pick(KEYS.length)] as string;
      if (Array.isArray(target)) target.push(structuredClone(target[0]) ?? anyValue());
      else record[name] = seedValue(name);
      break;
    }
    case 3: {
      // A NUL into one of the body's strings, wherever it is.
      const strings = all.flatMap((inner) =>
        Object.keys(inner)
          .filter((name) => typeof (inner as Record<string, unknown>)[name] === 'string')
          .map((name) => ({ inner: inner as Record<string, string>, name })),
      );
      const chosen = strings[pick(Math.max(strings.length, 1))];
      if (chosen)
        chosen.inner[chosen.name] =
          `${chosen.inner[chosen.name]?.slice(0, 1)}\u0000${chosen.inner[chosen.name]?.slice(1)}`;
      break;
    }
    default:
      record[key] = seedValue(key);
  }
}

/** Every value the seeds give a field, by the field's name: valid where it came from, maybe not where it goes. */
const SEED_VALUES = new Map<string, unknown[]>();
for (const container of Object.values(SEEDS).flatMap((seeds) => seeds.flatMap((seed) => containers(seed)))) {
  if (Array.isArray(container)) continue;
  for (const [name, value] of Object.entries(container)) {
    SEED_VALUES.set(name, [...(SEED_VALUES.get(name) ?? []), value]);
  }
}

/**
 * True when the stack takes `body` for `route` as the HTTP stack reads it off the wire (parse-request.ts) and every
 * route call checks and parses it (route-call.ts).
 */
function stackAccepts(route: AnyRoute, body: unknown): boolean {
  try {
    const received = parseJsonBody(JSON.stringify(body), 'application/json');
    assertSafeBody(received);
    parseInput(route.body as NonNullable<AnyRoute['body']>, requireBody(received), 'body');
    return true;
  } catch (error) {
    if (error instanceof ValidationError) return false;
    throw error;
  }
}

describe('request bodies the OpenAPI document accepts', () => {
  const routes = new Map(allRoutes().map((route) => [`${route.method} ${route.path}`, route]));
  const check = compileRequestCheck(buildOpenApiDocument(allRoutes(), 'test') as OpenApiDocument);

  it.each(Object.keys(SEEDS))('%s: the stack accepts every one (mutated from valid bodies)', (key) => {
    const route = routes.get(key) as AnyRoute;
    const [method, path] = key.split(' ') as [string, string];
    const counts = { both: 0, neither: 0, onlyStack: 0 };
    const seeds = SEEDS[key] as unknown[];
    for (const seed of seeds) {
      expect([key, check.body(method, path, seed), stackAccepts(route, seed)]).toEqual([key, [], true]);
    }
    for (let n = 0; n < 400; n++) {
      const pick = random(n + 1);
      const body = structuredClone(seeds[n % seeds.length]);
      for (let changes = 1 + pick(2); changes > 0; changes--) mutate(body, pick);
      const documented = check.body(method, path, body).length === 0;
      const accepted = stackAccepts(route, body);
      // The case, when it fails: the seed number and the body the document accepts and the stack refuses.
      if (documented) expect({ case: n, body, accepted }).toEqual({ case: n, body, accepted: true });
      if (documented) counts.both++;
      else if (accepted) counts.onlyStack++;
      else counts.neither++;
    }
    // The mutations reach both sides of the rules, or the check above says little.
    expect({ key, enough: counts.both > 40 && counts.neither > 100, counts }).toEqual({
      key,
      enough: true,
      counts,
    });
  });
});
