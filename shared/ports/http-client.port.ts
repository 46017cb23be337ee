/**
 * Outbound HTTP for webhook deliveries (and later media fetches): one POST whose outcome is a value the caller
 * records, never a throw, so a bad endpoint cannot surface as an unhandled rejection in a background delivery.
 */
export interface HttpPostRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  /** The whole attempt: DNS, connect, and the response up to its last byte read. */
  readonly timeoutMs: number;
}

/**
 * Why no response arrived: `refused` (the URL is not allowed, or a header cannot be sent; retrying will not help),
 * `dns` (the name did not resolve in time or at all), `timeout`, `network` (refused connection, reset, TLS …).
 */
export type HttpFailureReason = 'refused' | 'dns' | 'timeout' | 'network';

/**
 * `ok` means an HTTP response arrived, whatever its status: redirects are never followed, so a 3xx is just a
 * status, and deciding which statuses count as delivered is the caller's business.
 */
export type HttpPostResult =
  | { readonly ok: true; readonly status: number; readonly headers: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly reason: HttpFailureReason; readonly error: string };

export interface HttpClient {
  post(url: string, request: HttpPostRequest): Promise<HttpPostResult>;
}
