/**
 * Real local proxies for the session-proxy tests, each tunnelling to whatever it is asked (or refusing) and
 * recording the targets and the credentials it was shown: an HTTP CONNECT proxy, and a SOCKS proxy that speaks both
 * SOCKS5 (no authentication, or RFC 1929 username and password when `credentials` is given) and SOCKS4/4a.
 */
import http from 'node:http';
import net from 'node:net';

export interface TestProxy {
  port: number;
  /** `host:port` of every tunnel opened. */
  tunnels: string[];
  /** What each request authenticated with: the Proxy-Authorization header, `user:pass` (SOCKS5), the user id (SOCKS4). */
  credentials: (string | undefined)[];
  close(): Promise<void>;
}

function tracked(
  server: net.Server,
  tunnels: string[],
  credentials: (string | undefined)[],
  open: Set<net.Socket>,
) {
  return async (): Promise<TestProxy> => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as net.AddressInfo).port,
      tunnels,
      credentials,
      close: async () => {
        for (const socket of open) socket.destroy();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  };
}

/** Joins `client` to a new connection to `host:port`, calling `ready` once it is up (`head` forwarded first). */
function pipeTo(
  client: net.Socket,
  host: string,
  port: number,
  open: Set<net.Socket>,
  ready: () => void,
  head?: Buffer,
) {
  const upstream = net.connect(port, host, () => {
    ready();
    if (head && head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  open.add(upstream);
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
}

/** An HTTP CONNECT proxy; `refuse` answers every CONNECT with that status instead. */
export function startConnectProxy(refuse?: number): Promise<TestProxy> {
  const tunnels: string[] = [];
  const credentials: (string | undefined)[] = [];
  const open = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    open.add(client);
    credentials.push(req.headers['proxy-authorization']);
    if (refuse !== undefined) {
      client.end(`HTTP/1.1 ${refuse} ${http.STATUS_CODES[refuse]}\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    tunnels.push(req.url ?? '');
    const [host = '', port] = (req.url ?? '').split(/:(?=\d+$)/);
    pipeTo(
      client,
      host,
      Number(port),
      open,
      () => client.write('HTTP/1.1 200 Connection Established\r\n\r\n'),
      head,
    );
  });
  return tracked(server, tunnels, credentials, open)();
}

/** Reads a SOCKS request frame by frame: resolves `n` bytes once they arrived. */
function frames(socket: net.Socket) {
  let buffered = Buffer.alloc(0);
  let waiting: (() => void) | null = null;
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    waiting?.();
  };
  socket.on('data', onData);
  return {
    read: async (n: number): Promise<Buffer> => {
      while (buffered.length < n) await new Promise<void>((resolve) => (waiting = resolve));
      const bytes = buffered.subarray(0, n);
      buffered = buffered.subarray(n);
      return bytes;
    },
    /** Bytes up to a NUL (consumed, not returned). */
    readString: async (): Promise<string> => {
      while (!buffered.includes(0)) await new Promise<void>((resolve) => (waiting = resolve));
      const end = buffered.indexOf(0);
      const text = buffered.subarray(0, end).toString();
      buffered = buffered.subarray(end + 1);
      return text;
    },
    done: (): Buffer => {
      socket.off('data', onData);
      return buffered;
    },
  };
}

/** A SOCKS4/4a and SOCKS5 proxy; with `credentials`, SOCKS5 clients must authenticate with them. */
export function startSocksProxy(credentials?: { user: string; pass: string }): Promise<TestProxy> {
  const tunnels: string[] = [];
  const seen: (string | undefined)[] = [];
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('error', () => client.destroy());
    const input = frames(client);
    const connect = (host: string, port: number, reply: Buffer) => {
      tunnels.push(`${host}:${port}`);
      const head = input.done();
      pipeTo(client, host, port, open, () => client.write(reply), head);
    };
    void (async () => {
      const [version] = await input.read(1);
      if (version === 0x04) {
        const header = await input.read(7);
        const port = header.readUInt16BE(1);
        const ip = [...header.subarray(3, 7)].join('.');
        seen.push(await input.readString());
        const host = ip.startsWith('0.0.0.') ? await input.readString() : ip;
        connect(host, port, Buffer.from([0x00, 0x5a, 0, 0, 0, 0, 0, 0]));
        return;
      }
      const [count = 0] = await input.read(1);
      const methods = [...(await input.read(count))];
      if (credentials) {
        if (!methods.includes(0x02)) return client.end(Buffer.from([0x05, 0xff]));
        client.write(Buffer.from([0x05, 0x02]));
        const [, userLength = 0] = await input.read(2);
        const user = (await input.read(userLength)).toString();
        const [passLength = 0] = await input.read(1);
        const pass = (await input.read(passLength)).toString();
        seen.push(`${user}:${pass}`);
        const ok = user === credentials.user && pass === credentials.pass;
        client.write(Buffer.from([0x01, ok ? 0x00 : 0x01]));
        if (!ok) return client.end();
      } else {
        seen.push(undefined);
        client.write(Buffer.from([0x05, 0x00]));
      }
      const [, , , type] = await input.read(4);
      // IPv4 and names only: the tests reach 127.0.0.1 and the simulator's host names.
      if (type !== 0x01 && type !== 0x03)
        return client.end(Buffer.from([0x05, 0x08, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
      const host =
        type === 0x03
          ? (await input.read((await input.read(1))[0] ?? 0)).toString()
          : [...(await input.read(4))].join('.');
      const port = (await input.read(2)).readUInt16BE(0);
      connect(host, port, Buffer.from([0x05, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
    })();
  });
  return tracked(server, tunnels, seen, open)();
}
