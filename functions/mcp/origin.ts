/**
 * The Origin check of POST /mcp (MCP streamable HTTP transport, 2025-11-25: a server MUST refuse a request whose
 * Origin is present and invalid with 403, against DNS rebinding). Agents and SDK clients send no Origin; a browser
 * page does. A rebinding page's Origin is its own domain, even when its requests reach this host, so the Host header
 * proves nothing: only pages on a loopback name (the operator's own machine) and the origins an operator lists
 * (MCP_ALLOWED_ORIGINS) may call.
 */

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True when a request with these headers may reach the endpoint as far as its Origin goes. */
export function originAllowed(
  headers: Readonly<Record<string, string | undefined>>,
  allowed: readonly string[],
): boolean {
  const origin = headers.origin;
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // `null` (a sandboxed page, a file) and anything unparseable name no origin that could be trusted.
    return false;
  }
  return LOOPBACK_HOSTNAMES.has(url.hostname) || allowed.includes(url.origin);
}
