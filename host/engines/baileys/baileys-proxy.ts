/**
 * The session's proxy for a Baileys socket, of any type the session may name (http, https, socks4, socks5): its
 * WebSocket to the WhatsApp server (`agent`), its media uploads (`fetchAgent`, which Baileys' Node upload path hands
 * to https.request) and its media downloads (`dispatcher`, which Baileys hands to the global fetch, an undici
 * dispatcher) each open every connection as a tunnel through the proxy (`#host/engines/proxy-tunnel.js`), with TLS
 * inside it for a secure target. Errors name the proxy by host:port, never by its URL.
 */
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type tls from 'node:tls';
import { Agent as UndiciAgent } from 'undici';
import { openProxiedConnection } from '#host/engines/proxy-tunnel.js';
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
  /** For media downloads: the dispatcher Baileys passes to fetch. */
  dispatcher: UndiciAgent;
  /** `host:port`. */
  host: string;
}

type Callback = (error: Error | null, socket?: Duplex) => void;

/** `createConnection` of a tunnelling node:http(s) agent. */
function tunnelConnection(proxy: ProxyTarget, secure: boolean) {
  return (options: https.RequestOptions & tls.ConnectionOptions, callback: Callback): undefined => {
    const host = options.hostname ?? options.host ?? 'localhost';
    const port = Number(options.port) || (secure ? 443 : 80);
    openProxiedConnection(proxy, { host, port, secure, tls: options }).then(
      (socket) => callback(null, socket),
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

/** An undici dispatcher whose every connection is a tunnel through the proxy. */
function tunnelDispatcher(proxy: ProxyTarget): UndiciAgent {
  return new UndiciAgent({
    connect: (options, callback) => {
      const secure = options.protocol === 'https:';
      openProxiedConnection(proxy, {
        host: options.hostname,
        port: Number(options.port) || (secure ? 443 : 80),
        secure,
        tls: options.servername ? { servername: options.servername } : {},
      }).then(
        (socket) => callback(null, socket),
        (error: Error) => callback(error, null),
      );
    },
  });
}

/**
 * The proxy of a session's sockets, or null (direct). `webSocketUrl` is the server's (plain `ws:` on a private
 * server, `wss:` by default). Throws, naming nothing of the URL, for a stored URL that is no proxy URL.
 */
export function baileysProxyOf(
  proxyUrl: string | null,
  webSocketUrl: string | undefined,
): BaileysProxy | null {
  if (proxyUrl === null) return null;
  const target = parseProxyUrl(proxyUrl);
  if (!target) throw new Error('the session proxy URL is not a proxy URL; set it again');
  const fetchAgent = new TunnelHttpsAgent(target);
  const plain = webSocketUrl !== undefined && new URL(webSocketUrl).protocol === 'ws:';
  const agent = plain ? (new TunnelHttpAgent(target) as unknown as https.Agent) : fetchAgent;
  return { agent, fetchAgent, dispatcher: tunnelDispatcher(target), host: proxyHostOf(target) };
}
