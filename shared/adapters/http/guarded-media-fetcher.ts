/**
 * The MediaFetcher for URLs in send requests: a GET vetted by the SSRF guard, its socket pinned to the vetted
 * addresses (as the webhook client does), no redirects, one deadline for the whole download, and the body read only
 * up to the cap: a Content-Length over it is refused before any byte is read.
 */
import http from 'node:http';
import https from 'node:https';
import type { MediaFetcher, MediaFetchRequest, MediaFetchResult } from '#shared/ports/media-fetcher.port.js';
import {
  DEFAULT_DNS_TIMEOUT_MS,
  type HostResolver,
  systemResolver,
  UrlNotAllowedError,
  type VettedUrl,
  vetUrl,
} from '#shared/security/ssrf-guard.js';
import { describe, pinnedLookup } from './guarded-http-client.js';

export interface GuardedMediaFetcherOptions {
  /** Hosts the guard lets through unchecked (SSRF_ALLOWED_HOSTS). */
  readonly allowedHosts?: readonly string[];
  readonly resolve?: HostResolver;
}

export class GuardedMediaFetcher implements MediaFetcher {
  private readonly allowedHosts: readonly string[];
  private readonly resolve: HostResolver;

  constructor(options: GuardedMediaFetcherOptions = {}) {
    this.allowedHosts = [...(options.allowedHosts ?? [])];
    this.resolve = options.resolve ?? systemResolver;
  }

  async fetch(url: string, request: MediaFetchRequest): Promise<MediaFetchResult> {
    const deadline = Date.now() + request.timeoutMs;
    let vetted: VettedUrl;
    try {
      vetted = await vetUrl(url, {
        allowedHosts: this.allowedHosts,
        resolve: this.resolve,
        dnsTimeoutMs: Math.max(1, Math.min(DEFAULT_DNS_TIMEOUT_MS, request.timeoutMs)),
      });
    } catch (error) {
      if (
        error instanceof UrlNotAllowedError &&
        error.reason !== 'unresolvable' &&
        error.reason !== 'dns_timeout'
      ) {
        return { ok: false, reason: 'refused', error: error.message };
      }
      return { ok: false, reason: 'network', error: describe(error) };
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0)
      return { ok: false, reason: 'timeout', error: `No media within ${request.timeoutMs} ms` };
    return download(vetted, request, remaining);
  }
}

function download(
  vetted: VettedUrl,
  request: MediaFetchRequest,
  timeoutMs: number,
): Promise<MediaFetchResult> {
  const { url, host, addresses } = vetted;
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (result: MediaFetchResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const options: http.RequestOptions = {
      method: 'GET',
      hostname: host,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { accept: '*/*' },
      // One connection per download: media fetches are rare next to webhook posts, and a pooled socket could
      // carry the previous download's pinning.
      agent: false,
      ...(addresses ? { lookup: pinnedLookup(addresses) } : {}),
    };
    const req = secure ? https.request(options) : http.request(options);
    timer = setTimeout(
      () => settle({ ok: false, reason: 'timeout', error: `No media within ${request.timeoutMs} ms` }),
      timeoutMs,
    );
    req.on('error', (error) => settle({ ok: false, reason: 'network', error: describe(error) }));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        settle({
          ok: false,
          reason: 'redirect',
          error: `The media URL redirects (${status}); redirects are not followed`,
        });
        return;
      }
      if (status < 200 || status >= 300) {
        settle({ ok: false, reason: 'status', error: `The media URL answered ${status}` });
        return;
      }
      const declared = Number(res.headers['content-length'] ?? Number.NaN);
      const tooLarge = () =>
        settle({
          ok: false,
          reason: 'too_large',
          error: `The media is larger than ${request.maxBytes} bytes`,
        });
      if (declared > request.maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.byteLength;
        if (read > request.maxBytes) return tooLarge();
        chunks.push(chunk);
      });
      res.on('error', (error) => settle({ ok: false, reason: 'network', error: describe(error) }));
      res.on('end', () =>
        settle({ ok: true, bytes: Buffer.concat(chunks), contentType: res.headers['content-type'] ?? null }),
      );
    });
    req.end();
  });
}
