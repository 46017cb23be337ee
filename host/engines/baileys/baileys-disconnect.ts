/**
 * Why a Baileys socket closed, as a sentence for the session's `lastError`, its log line and its audit entry: the
 * server was never reached (name lookup, refused connection, no answer in time), closed the connection before the
 * login completed, or dropped a connection that was up, followed by the underlying cause as Node or Baileys gave it.
 */

/** How far a socket got: no WebSocket yet, WebSocket open but not logged in, logged in. */
export type ConnectStage = 'connecting' | 'handshaking' | 'open';

const LEAD: Record<ConnectStage, string> = {
  connecting: 'Cannot reach the WhatsApp server',
  handshaking: 'The connection to the WhatsApp server ended before the login completed',
  open: 'Connection to the WhatsApp server lost',
};

/** `user:password@` in any URL the cause may quote (a proxy's, a server URL's) is masked. */
function withoutCredentials(text: string): string {
  return text.replace(/(\/\/)[^/\s@]+@/g, '$1***@');
}

/**
 * The cause of a close: the network error under Baileys' wrapper when there is one (Baileys turns a WebSocket
 * error into "WebSocket Error (<message>)" and keeps the original as `data`), else the error's own message.
 */
function causeOf(error: unknown): string {
  const { message, data } = (error ?? {}) as { message?: unknown; data?: { message?: unknown } | null };
  // Read by shape: an error from another realm (a VM context) is no `instanceof Error` here.
  const underlying = data?.message;
  if (typeof underlying === 'string' && underlying) return underlying;
  return typeof message === 'string' && message ? message : 'connection closed';
}

/**
 * e.g. "Cannot reach the WhatsApp server (getaddrinfo ENOTFOUND web.whatsapp.com)", or "Cannot reach the WhatsApp
 * server through the proxy 10.0.0.1:3128 (…)" for a session with a proxy. Once the server was reached,
 * the status code Baileys gave the close follows the cause (before, it is only Baileys' stand-in for "no answer").
 */
export function describeClose(
  error: unknown,
  stage: ConnectStage,
  code: number | undefined,
  proxyHost?: string,
): string {
  const cause = causeOf(error);
  const withCode = stage === 'connecting' || code === undefined ? cause : `${cause}; status ${code}`;
  // Before the WebSocket opened, the proxy is the first suspect: the reason names it (by host:port only).
  const via = stage === 'connecting' && proxyHost ? ` through the proxy ${proxyHost}` : '';
  return `${LEAD[stage]}${via} (${withoutCredentials(withCode)})`;
}
