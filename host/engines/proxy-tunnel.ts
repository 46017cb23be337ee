/**
 * A raw TCP stream to a target through a session's proxy, whatever its type: an HTTP CONNECT tunnel through an http
 * or https proxy (credentials from the URL as Basic Proxy-Authorization), or a SOCKS4/4a or SOCKS5 tunnel
 * (`socks-handshake.ts`). The engines' agents and dispatchers open every connection of a proxied session through it,
 * so no connection of that session leaves directly. Errors name the proxy by host:port, never by its URL.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { type ProxyTarget, proxyHostOf } from '#shared/domain/session-proxy.js';
import { socksHandshake } from './socks-handshake.js';

/** How long a proxy may take to open a tunnel before the attempt fails (the socket's own timeouts start after). */
const TUNNEL_TIMEOUT_MS = 20_000;

function connectTunnel(proxy: ProxyTarget, name: string, target: string): Promise<net.Socket> {
  const credentials = `${proxy.username ?? ''}:${proxy.password ?? ''}`;
  const authorization =
    proxy.username !== undefined || proxy.password !== undefined
      ? { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` }
      : {};
  return new Promise((resolve, reject) => {
    const request = (proxy.type === 'https' ? https : http).request({
      host: proxy.host,
      port: proxy.port,
      method: 'CONNECT',
      path: target,
      agent: false,
      timeout: TUNNEL_TIMEOUT_MS,
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
    request.once('timeout', () => request.destroy(new Error('ETIMEDOUT')));
    request.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`proxy ${name} unreachable: ${error.code ?? error.message}`)),
    );
    request.end();
  });
}

async function socksTunnel(
  proxy: ProxyTarget,
  name: string,
  host: string,
  port: number,
): Promise<net.Socket> {
  const socket = net.connect({ host: proxy.host, port: proxy.port });
  socket.setTimeout(TUNNEL_TIMEOUT_MS, () => socket.destroy(new Error('ETIMEDOUT')));
  try {
    await socksHandshake(socket, proxy, name, host, port);
  } catch (error) {
    socket.destroy();
    throw error;
  }
  socket.setTimeout(0);
  return socket;
}

/** A raw TCP stream to `host:port` through the proxy, once the proxy opened the tunnel. */
export function openTunnel(proxy: ProxyTarget, host: string, port: number): Promise<net.Socket> {
  const name = proxyHostOf(proxy);
  if (proxy.type === 'socks4' || proxy.type === 'socks5') return socksTunnel(proxy, name, host, port);
  return connectTunnel(proxy, name, `${host.includes(':') ? `[${host}]` : host}:${port}`);
}

/**
 * The tunnel, with TLS inside it for a secure target (`servername` defaults to a named host), resolved once the TLS
 * handshake is done so that a certificate error fails the connection here, not on its first write.
 */
export async function openProxiedConnection(
  proxy: ProxyTarget,
  target: { host: string; port: number; secure: boolean; tls?: tls.ConnectionOptions },
): Promise<net.Socket> {
  const socket = await openTunnel(proxy, target.host, target.port);
  if (!target.secure) return socket;
  const servername = target.tls?.servername ?? (net.isIP(target.host) ? undefined : target.host);
  const secured = tls.connect({ ...target.tls, socket, ...(servername ? { servername } : {}) });
  return new Promise((resolve, reject) => {
    secured.once('secureConnect', () => {
      secured.off('error', reject);
      resolve(secured);
    });
    secured.once('error', reject);
  });
}
