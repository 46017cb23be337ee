/**
 * Fetching media a send request names by URL (send-image, send-document…): the service downloads it itself, so the
 * URL is a user's input pointing anywhere. The adapter vets it with the SSRF guard, pins the connection, never
 * follows redirects and stops reading past the size cap; every outcome is a value.
 */
export interface MediaFetchRequest {
  /** The most bytes accepted; a larger body is refused (`too_large`) without reading it all. */
  readonly maxBytes: number;
  /** The whole download: DNS, connect and the body to its last byte. */
  readonly timeoutMs: number;
}

/**
 * Why nothing usable came back: `refused` (the URL is not allowed: scheme, credentials, a private address),
 * `redirect` (a 3xx: never followed), `status` (another non-2xx), `too_large`, `timeout`, `network` (DNS included).
 */
export type MediaFetchFailure = 'refused' | 'redirect' | 'status' | 'too_large' | 'timeout' | 'network';

export type MediaFetchResult =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly contentType: string | null }
  | { readonly ok: false; readonly reason: MediaFetchFailure; readonly error: string };

export interface MediaFetcher {
  fetch(url: string, request: MediaFetchRequest): Promise<MediaFetchResult>;
}
