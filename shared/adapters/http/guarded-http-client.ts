/**
 * The HttpClient for URLs that users supply (webhooks): every POST is vetted by the SSRF guard and its socket is
 * pinned to the addresses the guard checked, so DNS rebinding cannot turn a public name into an inward connection.
 * Redirects are never followed (a 3xx is reported as a status), each attempt has one deadline, the response body is
 * read only up to a cap, and connections are reused through one keep-alive agent per scheme.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { HttpClient, HttpPostRequest, HttpPostResult } from '#shared/ports/http-client.port.js';
import {
  DEFAULT_DNS_TIMEOUT_MS,
  type HostResolver,
  systemResolver,
  UrlNotAllowedError,
  type VettedAddress,
  type VettedUrl,
  vetUrl,
} from '#shared/security/ssrf-guard.js';

export interface GuardedHttpClientOptions {
  /** Hosts the guard lets through unchecked and unpinned (tests, operators' internal receivers); see VetOptions. */
  readonly allowedHosts?: readonly string[];
  readonly resolve?: HostResolver;
  /** Bound on the DNS step; the request's own timeout bounds it too. */
  readonly dnsTimeoutMs?: number;
  /** How much of a response body is read before the connection is dropped: only the status matters. */
  readonly maxResponseBytes?: number;
  /** Concurrent sockets per origin and scheme; more requests wait in the agent's queue. */
  readonly maxSockets?: number;
  /** How long an idle kept-alive socket is kept: under the common 5 s server timeout, so a reused socket is alive. */
  readonly idleSocketMs?: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/** Connects only to the vetted addresses, whatever name the socket asks for; honours the family net asks for. */
export function pinnedLookup(addresses: readonly VettedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const candidates = addresses.filter(
      (candidate) => !options.family || candidate.family === options.family,
    );
    const first = candidates[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error('No vetted address of the requested family');
      error.code = 'ENOTFOUND';
      callback(error, '');
    } else if (options.all) {
      callback(
        null,
        candidates.map(({ address, family }) => ({ address, family })),
      );
    } else {
      callback(null, first.address, first.family);
    }
  };
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = 'code' in error && typeof error.code === 'string' ? error.code : null;
  return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}

function refused(error: unknown): HttpPostResult {
  if (!(error instanceof UrlNotAllowedError)) return { ok: false, reason: 'network', error: describe(error) };
  const dns = error.reason === 'unresolvable' || error.reason === 'dns_timeout';
  return { ok: false, reason: dns ? 'dns' : 'refused', error: error.message };
}

export class GuardedHttpClient implements HttpClient {
  private readonly allowedHosts: readonly string[];
  private readonly resolve: HostResolver;
  private readonly dnsTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(options: GuardedHttpClientOptions = {}) {
    this.allowedHosts = [...(options.allowedHosts ?? [])];
    this.resolve = options.resolve ?? systemResolver;
    this.dnsTimeoutMs = options.dnsTimeoutMs ?? DEFAULT_DNS_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const agentOptions = {
      keepAlive: true,
      maxSockets: options.maxSockets ?? 16,
      timeout: options.idleSocketMs ?? 4_000,
    };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
  }

  async post(url: string, request: HttpPostRequest): Promise<HttpPostResult> {
    const deadline = Date.now() + request.timeoutMs;
    let vetted: VettedUrl;
    try {
      vetted = await vetUrl(url, {
        allowedHosts: this.allowedHosts,
        resolve: this.resolve,
        dnsTimeoutMs: Math.max(1, Math.min(this.dnsTimeoutMs, request.timeoutMs)),
      });
    } catch (error) {
      return refused(error);
    }
    // One deadline for the whole attempt: what DNS used is taken from the connect and response.
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      return { ok: false, reason: 'timeout', error: `No response within ${request.timeoutMs} ms` };
    }
    return this.send(vetted, request, remaining);
  }

  /** Drops every pooled socket (shutdown, tests); requests still in flight fail as network errors. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private send(vetted: VettedUrl, request: HttpPostRequest, timeoutMs: number): Promise<HttpPostResult> {
    const { url, host, addresses } = vetted;
    const secure = url.protocol === 'https:';
    const body = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
    return new Promise((resolve) => {
      // Set once the status line arrives: from then on the outcome is that status, whatever befalls the body.
      let answered: HttpPostResult | null = null;
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const settle = (result: HttpPostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const options: http.RequestOptions = {
        method: 'POST',
        // The name, not an address: Node derives the Host header and the TLS servername from it.
        hostname: host,
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        headers: { ...request.headers, 'content-length': String(body.byteLength) },
        agent: secure ? this.httpsAgent : this.httpAgent,
        ...(addresses ? { lookup: pinnedLookup(addresses) } : {}),
      };
      let req: http.ClientRequest;
      try {
        req = secure ? https.request(options) : http.request(options);
      } catch (error) {
        // Node checks header names and values as it builds the request: such a request can never be sent.
        settle({ ok: false, reason: 'refused', error: describe(error) });
        return;
      }
      timer = setTimeout(() => {
        req.destroy();
        settle(
          answered ?? { ok: false, reason: 'timeout', error: `No response within ${request.timeoutMs} ms` },
        );
      }, timeoutMs);
      req.on('error', (error) =>
        settle(answered ?? { ok: false, reason: 'network', error: describe(error) }),
      );
      req.on('response', (res) => {
        answered = { ok: true, status: res.statusCode ?? 0, headers: flatHeaders(res.headers) };
        const result = answered;
        // The body is read to the end so the socket can go back to the pool, but only up to the cap.
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.byteLength;
          if (read > this.maxResponseBytes) {
            res.destroy();
            settle(result);
          }
        });
        res.on('error', () => settle(result));
        res.on('end', () => settle(result));
        res.on('close', () => settle(result));
      });
      req.end(body);
    });
  }
}
