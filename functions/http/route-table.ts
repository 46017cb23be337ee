/**
 * Route matching by method and API Gateway style path (`/api/sessions/{id}/qr`). A route's key is what API Gateway
 * puts in `event.routeKey` (`GET /api/sessions/{id}`), so a request that arrives with its route already chosen (API
 * Gateway's routes, or the embedded gateway's own match) is one map lookup; a path match is the fallback (a
 * catch-all route). Static paths win over templates; templates are tried in the order they were added.
 */

/** What a path matched: the route's value and its path parameters (still percent-encoded, as in the URL). */
export interface RouteMatch<T> {
  value: T;
  routeKey: string;
  params: Record<string, string>;
}

type Segment = { literal: string } | { param: string };

interface Template<T> {
  routeKey: string;
  value: T;
  /** A literal segment, or the name of a parameter (`{id}` → id), by position. */
  segments: readonly Segment[];
}

const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** The key API Gateway gives a route: `METHOD path`. */
export const routeKeyOf = (method: string, path: string): string => `${method} ${path}`;

/** `/a/b/` → `/a/b`; the root stays `/`. A single trailing slash is tolerated on every route. */
function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export class RouteTable<T> {
  private readonly byKey = new Map<string, T>();
  private readonly staticPaths = new Map<string, { routeKey: string; value: T }>();
  /** Templates by method, then by segment count. */
  private readonly templates = new Map<string, Map<number, Template<T>[]>>();
  private readonly methods = new Set<string>();

  /** Adds a route; a second route with the same method and path is a programming error. */
  add(method: string, path: string, value: T): this {
    const routeKey = routeKeyOf(method, path);
    if (this.byKey.has(routeKey)) throw new Error(`Duplicate route ${routeKey}`);
    this.byKey.set(routeKey, value);
    this.methods.add(method);
    if (!path.includes('{')) {
      this.staticPaths.set(routeKey, { routeKey, value });
      return this;
    }
    const segments = path
      .split('/')
      .slice(1)
      .map((segment) => {
        const param = PARAM.exec(segment)?.[1];
        if (param) return { param };
        if (segment.includes('{') || segment.includes('}')) throw new Error(`Invalid route path ${path}`);
        return { literal: segment };
      });
    const byCount = this.templates.get(method) ?? new Map<number, Template<T>[]>();
    this.templates.set(method, byCount);
    const list = byCount.get(segments.length) ?? [];
    byCount.set(segments.length, list);
    list.push({ routeKey, value, segments });
    // As API Gateway chooses: at the first segment where two templates differ, a literal wins over a parameter
    // (`/contacts/blocked` before `/contacts/{contactId}`), whatever order they were added in.
    list.sort(bySpecificity);
    return this;
  }

  /** The route API Gateway (or the embedded gateway) chose, by its key. */
  get(routeKey: string | undefined): T | undefined {
    return routeKey === undefined ? undefined : this.byKey.get(routeKey);
  }

  /** The route `method path` matches (the path as it arrived, without its query), or null. */
  match(method: string, rawPath: string): RouteMatch<T> | null {
    const path = withoutTrailingSlash(rawPath);
    const exact = this.staticPaths.get(routeKeyOf(method, path));
    if (exact) return { ...exact, params: {} };
    const byCount = this.templates.get(method);
    if (!byCount) return null;
    for (const template of byCount.get(segmentCount(path)) ?? []) {
      const params = matchSegments(template.segments, path);
      if (params) return { value: template.value, routeKey: template.routeKey, params };
    }
    return null;
  }

  /**
   * The methods of the routes `rawPath` matches, in the order they were first added: what a 405 lists in `Allow` for
   * a path that exists with other methods. Empty for a path no route has.
   */
  methodsOf(rawPath: string): string[] {
    return [...this.methods].filter((method) => this.match(method, rawPath) !== null);
  }

  /** Every route's key and value, in the order they were added. */
  entries(): IterableIterator<[string, T]> {
    return this.byKey.entries();
  }
}

function bySpecificity<T>(a: Template<T>, b: Template<T>): number {
  for (let i = 0; i < a.segments.length; i++) {
    const literalA = 'literal' in (a.segments[i] ?? {});
    const literalB = 'literal' in (b.segments[i] ?? {});
    if (literalA !== literalB) return literalA ? -1 : 1;
  }
  return 0;
}

/** Segments of `/a/b/c` (3): one per slash. */
function segmentCount(path: string): number {
  let count = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++;
  return count;
}

/** The template's parameters in `path` (with as many segments), or null; walks the path without splitting it. */
function matchSegments(segments: readonly Segment[], path: string): Record<string, string> | null {
  const params: Record<string, string> = {};
  let start = 1;
  for (const segment of segments) {
    const slash = path.indexOf('/', start);
    const end = slash < 0 ? path.length : slash;
    if ('literal' in segment) {
      if (end - start !== segment.literal.length || !path.startsWith(segment.literal, start)) return null;
    } else {
      // A parameter is one non-empty segment, as API Gateway matches `{name}`.
      if (end === start) return null;
      params[segment.param] = path.slice(start, end);
    }
    start = end + 1;
  }
  return params;
}
