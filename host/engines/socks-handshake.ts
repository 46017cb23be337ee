/**
 * The client side of a SOCKS handshake on a connected socket: SOCKS5 (RFC 1928, with RFC 1929 username and password
 * when the proxy URL carries them) and SOCKS4/4a. Host names are sent to the proxy unresolved (SOCKS5's domain
 * address, SOCKS4a's extension), so the proxy resolves them as a `socks5h` client would: the session's DNS queries
 * leave from the proxy's network, not the gateway's. Written here rather than installed: the handshake is a few
 * fixed frames, and the proxy errors it names are what the session's lastError shows.
 */
import net from 'node:net';
import type { ProxyTarget } from '#shared/domain/session-proxy.js';

/** Reads exact byte counts off a socket during a handshake, then hands any bytes past it back to the socket. */
class HandshakeReader {
  private buffered = Buffer.alloc(0);
  private waiting: { size: number; resolve: (bytes: Buffer) => void; reject: (e: Error) => void } | null =
    null;
  private failure: Error | null = null;

  constructor(
    private readonly socket: net.Socket,
    private readonly name: string,
  ) {
    socket.on('data', this.onData);
    socket.once('end', this.onClose);
    socket.once('close', this.onClose);
    socket.once('error', this.onError);
    if (socket.destroyed || socket.readableEnded) this.onClose();
  }

  read(size: number): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { size, resolve, reject };
      this.flush();
    });
  }

  /** Stops reading; bytes that arrived past a completed handshake go back to the socket for its next reader. */
  release(): void {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onClose);
    this.socket.off('close', this.onClose);
    this.socket.off('error', this.onError);
    // After a failure the socket is discarded (and an ended stream refuses unshift).
    if (this.buffered.length > 0 && !this.failure) this.socket.unshift(this.buffered);
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    this.flush();
  };

  private readonly onClose = () => this.fail(new Error(`proxy ${this.name} closed the connection`));

  private readonly onError = (error: NodeJS.ErrnoException) =>
    this.fail(new Error(`proxy ${this.name} unreachable: ${error.code ?? error.message}`));

  private fail(error: Error): void {
    this.failure ??= error;
    this.waiting?.reject(this.failure);
    this.waiting = null;
  }

  private flush(): void {
    const waiting = this.waiting;
    if (!waiting || this.buffered.length < waiting.size) return;
    this.waiting = null;
    const bytes = this.buffered.subarray(0, waiting.size);
    this.buffered = this.buffered.subarray(waiting.size);
    waiting.resolve(bytes);
  }
}

const SOCKS5_REPLIES: Record<number, string> = {
  1: 'general failure',
  2: 'connection not allowed by ruleset',
  3: 'network unreachable',
  4: 'host unreachable',
  5: 'connection refused',
  6: 'TTL expired',
  7: 'command not supported',
  8: 'address type not supported',
};

/** SOCKS5's DST.ADDR: an IPv4 or IPv6 literal as such, anything else as a domain name for the proxy to resolve. */
function socks5Address(host: string): Buffer {
  const family = net.isIP(host);
  if (family === 4) return Buffer.from([0x01, ...host.split('.').map(Number)]);
  if (family === 6) return Buffer.concat([Buffer.from([0x04]), ipv6Bytes(host)]);
  const name = Buffer.from(host);
  if (name.length > 255) throw new Error(`host name too long for SOCKS5: ${host.slice(0, 40)}…`);
  return Buffer.concat([Buffer.from([0x03, name.length]), name]);
}

/** The 16 bytes of an IPv6 literal (`::` expanded, a trailing dotted IPv4 part as its two groups). */
function ipv6Bytes(literal: string): Buffer {
  const address = literal.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a, b, c, d) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((n) => n.toString(16)).join(':'),
  );
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const bytes = Buffer.alloc(16);
  all.forEach((group, index) => {
    bytes.writeUInt16BE(Number.parseInt(group, 16), index * 2);
  });
  return bytes;
}

function portBytes(port: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(port);
  return bytes;
}

/** One handshake's parts: the socket and its reader, the proxy (named `name` in errors) and the target. */
interface Handshake {
  reader: HandshakeReader;
  socket: net.Socket;
  proxy: ProxyTarget;
  name: string;
  host: string;
  port: number;
}

async function socks5({ reader, socket, proxy, name, host, port }: Handshake) {
  const withCredentials = proxy.username !== undefined || proxy.password !== undefined;
  socket.write(Buffer.from(withCredentials ? [0x05, 0x02, 0x00, 0x02] : [0x05, 0x01, 0x00]));
  const [version, method] = await reader.read(2);
  if (version !== 0x05) throw new Error(`proxy ${name} is not a SOCKS5 proxy`);
  if (method === 0x02 && withCredentials) {
    const user = Buffer.from(proxy.username ?? '');
    const password = Buffer.from(proxy.password ?? '');
    socket.write(
      Buffer.concat([Buffer.from([0x01, user.length]), user, Buffer.from([password.length]), password]),
    );
    const [, status] = await reader.read(2);
    if (status !== 0x00) throw new Error(`proxy ${name} refused the credentials`);
  } else if (method !== 0x00) {
    throw new Error(`proxy ${name} accepts none of the offered authentication methods`);
  }
  socket.write(Buffer.concat([Buffer.from([0x05, 0x01, 0x00]), socks5Address(host), portBytes(port)]));
  const [, reply, , addressType] = await reader.read(4);
  if (reply !== 0x00) {
    throw new Error(`proxy ${name} refused the tunnel: ${SOCKS5_REPLIES[reply ?? 1] ?? `reply ${reply}`}`);
  }
  // The bound address the proxy reports is of no use to the client; it is read past.
  const addressLength =
    addressType === 0x01 ? 4 : addressType === 0x04 ? 16 : ((await reader.read(1))[0] ?? 0);
  await reader.read(addressLength + 2);
}

async function socks4({ reader, socket, proxy, name, host, port }: Handshake) {
  const family = net.isIP(host);
  if (family === 6) throw new Error(`proxy ${name} is SOCKS4, which cannot reach an IPv6 address`);
  const user = Buffer.from(`${proxy.username ?? ''}\0`);
  // SOCKS4a: the address 0.0.0.1 says the host name follows the user id, for the proxy to resolve.
  const address = family === 4 ? Buffer.from(host.split('.').map(Number)) : Buffer.from([0, 0, 0, 1]);
  const hostName = family === 4 ? Buffer.alloc(0) : Buffer.from(`${host}\0`);
  socket.write(Buffer.concat([Buffer.from([0x04, 0x01]), portBytes(port), address, user, hostName]));
  const [, status] = await reader.read(8);
  if (status !== 0x5a) throw new Error(`proxy ${name} refused the tunnel: SOCKS4 status ${status}`);
}

/**
 * Asks the SOCKS proxy at the other end of `socket` for a tunnel to `host:port`; resolves once the tunnel is open,
 * the socket then carrying the target's bytes. Rejects with an error naming the proxy as `name` (host:port), never
 * its credentials.
 */
export async function socksHandshake(
  socket: net.Socket,
  proxy: ProxyTarget,
  name: string,
  host: string,
  port: number,
): Promise<void> {
  const reader = new HandshakeReader(socket, name);
  try {
    const handshake = { reader, socket, proxy, name, host, port };
    await (proxy.type === 'socks5' ? socks5(handshake) : socks4(handshake));
  } finally {
    reader.release();
  }
}
