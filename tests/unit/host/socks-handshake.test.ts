/**
 * The SOCKS client handshake frame by frame against a scripted server: the bytes it sends for each address kind
 * (IPv4 and IPv6 literals, host names left for the proxy to resolve; SOCKS4 and 4a), the proxy's refusals as
 * errors naming the proxy, and bytes that arrive right after the handshake handed back to the socket's reader.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { socksHandshake } from '#host/engines/socks-handshake.js';
import type { ProxyTarget } from '#shared/domain/session-proxy.js';

interface Scripted {
  /** Every byte the client sent. */
  received: Buffer;
}

const servers: net.Server[] = [];
const accepted = new Set<net.Socket>();
afterEach(async () => {
  for (const socket of accepted) socket.destroy();
  accepted.clear();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A listening server whose connections the next afterEach destroys. */
async function listen(onClient: (client: net.Socket) => void): Promise<number> {
  const server = net.createServer((client) => {
    accepted.add(client);
    client.on('error', () => client.destroy());
    onClient(client);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** A server that answers each client write with the next of `replies` (all at once when `together`). */
async function scripted(replies: Buffer[], together = false): Promise<{ port: number; seen: Scripted }> {
  const seen: Scripted = { received: Buffer.alloc(0) };
  const port = await listen((client) => {
    if (together) client.write(Buffer.concat(replies));
    client.on('data', (chunk) => {
      seen.received = Buffer.concat([seen.received, chunk]);
      const next = together ? undefined : replies.shift();
      if (next) client.write(next);
    });
  });
  return { port, seen };
}

async function handshake(
  port: number,
  proxy: Omit<ProxyTarget, 'host' | 'port'>,
  host: string,
  target = 443,
) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  try {
    await socksHandshake(socket, { ...proxy, host: '127.0.0.1', port }, `127.0.0.1:${port}`, host, target);
    return socket;
  } catch (error) {
    socket.destroy();
    throw error;
  }
}

const OK5 = Buffer.from([0x05, 0x00, 0x00, 0x01, 10, 0, 0, 1, 0x1f, 0x90]);

describe('socksHandshake', () => {
  it('SOCKS5 without credentials: a host name goes to the proxy unresolved', async () => {
    const { port, seen } = await scripted([Buffer.from([0x05, 0x00]), OK5]);
    const socket = await handshake(port, { type: 'socks5' }, 'web.whatsapp.com');
    socket.destroy();
    const name = Buffer.from('web.whatsapp.com');
    expect(seen.received).toEqual(
      Buffer.concat([
        Buffer.from([0x05, 0x01, 0x00]),
        Buffer.from([0x05, 0x01, 0x00, 0x03, name.length]),
        name,
        Buffer.from([0x01, 0xbb]),
      ]),
    );
  });

  it('SOCKS5 with credentials (RFC 1929), an IPv6 literal as its 16 bytes', async () => {
    const { port, seen } = await scripted([Buffer.from([0x05, 0x02]), Buffer.from([0x01, 0x00]), OK5]);
    const socket = await handshake(
      port,
      { type: 'socks5', username: 'u', password: 'pw' },
      '2001:db8::ffff:10.0.0.1',
      80,
    );
    socket.destroy();
    expect(seen.received).toEqual(
      Buffer.concat([
        Buffer.from([0x05, 0x02, 0x00, 0x02]),
        Buffer.from([0x01, 1, 0x75, 2, 0x70, 0x77]),
        Buffer.from([0x05, 0x01, 0x00, 0x04]),
        Buffer.from('20010db8000000000000ffff0a000001', 'hex'),
        Buffer.from([0x00, 0x50]),
      ]),
    );
  });

  it('hands bytes that arrive with the reply back to the socket', async () => {
    const early = Buffer.from('server speaks first');
    const { port } = await scripted([Buffer.from([0x05, 0x00]), OK5, early], true);
    const socket = await handshake(port, { type: 'socks5' }, '127.0.0.1');
    const first = await new Promise<Buffer>((resolve) => socket.once('data', resolve));
    socket.destroy();
    expect(first).toEqual(early);
  });

  it.each([
    [
      [Buffer.from([0x05, 0x00]), Buffer.from([0x05, 0x05, 0x00, 0x01])],
      'refused the tunnel: connection refused',
    ],
    [[Buffer.from([0x05, 0xff])], 'accepts none of the offered authentication methods'],
    [[Buffer.from([0x05, 0x02]), Buffer.from([0x01, 0x01])], 'refused the credentials'],
    [[Buffer.from([0x04, 0x00])], 'is not a SOCKS5 proxy'],
  ])('SOCKS5 refusals name the proxy: %#', async (replies, message) => {
    const { port } = await scripted(replies);
    await expect(
      handshake(port, { type: 'socks5', username: 'u', password: 'p' }, 'example.org'),
    ).rejects.toThrow(`proxy 127.0.0.1:${port} ${message}`);
  });

  it('a proxy that closes mid-handshake', async () => {
    // Half a method reply, then the end of the connection.
    const port = await listen((client) => client.end(Buffer.from([0x05])));
    await expect(handshake(port, { type: 'socks5' }, 'example.org')).rejects.toThrow(
      `proxy 127.0.0.1:${port} closed the connection`,
    );
  });

  it('SOCKS4 for an IPv4 literal, SOCKS4a for a host name; a refusal names the status', async () => {
    const granted = Buffer.from([0x00, 0x5a, 0, 0, 0, 0, 0, 0]);
    const plain = await scripted([granted]);
    (await handshake(plain.port, { type: 'socks4', username: 'id' }, '10.1.2.3', 5222)).destroy();
    expect(plain.seen.received).toEqual(Buffer.from([0x04, 0x01, 0x14, 0x66, 10, 1, 2, 3, 0x69, 0x64, 0x00]));

    const named = await scripted([granted]);
    (await handshake(named.port, { type: 'socks4' }, 'g.whatsapp.net', 443)).destroy();
    expect(named.seen.received).toEqual(
      Buffer.concat([
        Buffer.from([0x04, 0x01, 0x01, 0xbb, 0, 0, 0, 1, 0x00]),
        Buffer.from('g.whatsapp.net\0'),
      ]),
    );

    const refusing = await scripted([Buffer.from([0x00, 0x5b, 0, 0, 0, 0, 0, 0])]);
    await expect(handshake(refusing.port, { type: 'socks4' }, 'example.org')).rejects.toThrow(
      'SOCKS4 status 91',
    );
    await expect(handshake(refusing.port, { type: 'socks4' }, '::1')).rejects.toThrow(
      'cannot reach an IPv6 address',
    );
  });
});
