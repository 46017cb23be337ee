/**
 * The session's proxy for a Baileys socket: its WebSocket to the WhatsApp server (`agent`) and its media uploads
 * (`fetchAgent`, which Baileys' Node upload path hands to https.request) each go through an agent that opens every
 * connection as an HTTP CONNECT tunnel through the proxy (an http or https proxy; credentials from the URL as Basic
 * Proxy-Authorization), then speaks TLS inside it for a secure target. Node's built-in modules only: no proxy
 * package is installed, so a socks4/socks5 proxy refuses the start (its lastError says so) rather than letting the
 * session connect directly. Media downloads go through the global fetch, which takes an undici dispatcher only,
 * and are not proxied yet. Errors name the proxy by host:port, never by its URL.
 */
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { type ProxyTarget, parseProxyUrl, proxyHostOf } from '#shared/domain/session-proxy.js';

/** The agents a socket is given, and how errors and logs name the proxy. */
export interface BaileysProxy {
  /**
   * For the WebSocket (plain or TLS, as the server URL says). Baileys types it as an https.Agent, but `ws` hands it
   * to http.request for a `ws:` URL, which wants an http.Agent: that one is typed as Baileys asks.
   */
  agent: https.Agent;
  /** For media uploads (always https). */
  fetchAgent: https.Agent;
  /** `host:port`. */
  host: string;
}

type Callback = (error: Error | null, socket?: Duplex) => void;

/** A raw TCP stream to `host:port` through the proxy, once it answered 200 to CONNECT. */
function openTunnel(proxy: ProxyTarget, host: string, port: number): Promise<net.Socket> {
  const name = proxyHostOf(proxy);
  const credentials = `${proxy.username ?? ''}:${proxy.password ?? ''}`;
  const authorization =
    proxy.username !== undefined || proxy.password !== undefined
      ? { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` }
      : {};
  const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return new Promise((resolve, reject) => {
    const request = (proxy.type === 'https' ? https : http).request({
      host: proxy.host,
      port: proxy.port,
      method: 'CONNECT',
      path: target,
      agent: false,
      headers: { host: target, ...authorization },
    });
    request.once('connect', (response, socket, head) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        reject(
          new Error(`proxy ${name} refused the tunnel: ${response.statusCode} ${response.statusMessage}`),
        );
        return;
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    request.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`proxy ${name} unreachable: ${error.code ?? error.message}`)),
    );
    request.end();
  });
}

/** `createConnection` of a tunnelling agent: the tunnel, with TLS inside it for a secure target. */
function tunnelConnection(proxy: ProxyTarget, secure: boolean) {
  return (options: https.RequestOptions & tls.ConnectionOptions, callback: Callback): undefined => {
    const host = options.hostname ?? options.host ?? 'localhost';
    const port = Number(options.port) || (secure ? 443 : 80);
    openTunnel(proxy, host, port).then(
      (socket) =>
        callback(
          null,
          secure ? tls.connect({ ...options, socket, servername: options.servername ?? host }) : socket,
        ),
      (error: Error) => callback(error),
    );
    return undefined;
  };
}

class TunnelHttpAgent extends http.Agent {
  constructor(proxy: ProxyTarget) {
    super({ keepAlive: false });
    Object.assign(this, { createConnection: tunnelConnection(proxy, false) });
  }
}

class TunnelHttpsAgent extends https.Agent {
  constructor(proxy: ProxyTarget) {
    super({ keepAlive: false });
    Object.assign(this, { createConnection: tunnelConnection(proxy, true) });
  }
}

/**
 * The proxy of a session's sockets, or null (direct). `webSocketUrl` is the server's (plain `ws:` on a private
 * server, `wss:` by default). Throws, naming the proxy by host:port, for a proxy it cannot use.
 */
export function baileysProxyOf(
  proxyUrl: string | null,
  webSocketUrl: string | undefined,
): BaileysProxy | null {
  if (proxyUrl === null) return null;
  const target = parseProxyUrl(proxyUrl);
  if (!target) throw new Error('the session proxy URL is not a proxy URL; set it again');
  const host = proxyHostOf(target);
  if (target.type === 'socks4' || target.type === 'socks5') {
    throw new Error(
      `${target.type} proxies are not supported yet (proxy ${host}); the session was not connected`,
    );
  }
  const fetchAgent = new TunnelHttpsAgent(target);
  const plain = webSocketUrl !== undefined && new URL(webSocketUrl).protocol === 'ws:';
  const agent = plain ? (new TunnelHttpAgent(target) as unknown as https.Agent) : fetchAgent;
  return { agent, fetchAgent, host };
}
