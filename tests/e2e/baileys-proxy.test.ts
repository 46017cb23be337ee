/**
 * A session's proxy with the real Baileys engine against the simulator: its connection goes through a real local
 * HTTP CONNECT proxy (which counts the tunnels and the credentials it was shown) and links to ready; a proxy that
 * refuses (a closed port, a 403 to CONNECT) leaves a lastError that names the proxy by host:port, and no answer,
 * error or lastError ever carries the proxy URL's credentials.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closedPort } from '#tests/helpers/closed-port.js';
import { phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import {
  sessionName,
  startTestGateway,
  type TestGateway,
  waitFor,
  waitForStatus,
} from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

unrefBaileysUploadTimeouts();

const SECRET = 'pr0xy-s3cret';
const nextPhone = phoneSequence('1557');

/** A local HTTP CONNECT proxy: tunnels to whatever is asked (or answers `refuse` instead), counting what it saw. */
interface Proxy {
  port: number;
  tunnels: string[];
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

async function startProxy(refuse?: number): Promise<Proxy> {
  const tunnels: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const open = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    open.add(client);
    authorizations.push(req.headers['proxy-authorization']);
    if (refuse !== undefined) {
      client.end(`HTTP/1.1 ${refuse} ${http.STATUS_CODES[refuse]}\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    open.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    tunnels,
    authorizations,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

interface SessionBody {
  id: string;
  status: string;
  lastError: string | null;
}

describe('Baileys engine: the session proxy', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  const proxies: Proxy[] = [];

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    gw = await startTestGateway(sim.gatewayEnv);
  }, 30_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
    for (const proxy of proxies) await proxy.close();
  });

  /** A session (admin key) with `proxyUrl` set through PATCH, started. */
  async function startWithProxy(proxyUrl: string, config: Record<string, unknown> = {}): Promise<string> {
    const created = await gw.request('POST', '/api/sessions', {
      body: { name: sessionName('proxy'), config },
    });
    const id: string = created.body.id;
    const patched = await gw.request('PATCH', `/api/sessions/${id}/proxy`, { body: { proxyUrl } });
    expect(patched.status).toBe(200);
    expect(patched.text).not.toContain(SECRET);
    expect((await gw.request('POST', `/api/sessions/${id}/start`)).status).toBe(200);
    return id;
  }

  /** The session once its first connection attempt failed (lastError set). */
  const firstError = (id: string) =>
    waitFor(async () => {
      const current = (await gw.request<SessionBody>('GET', `/api/sessions/${id}`)).body;
      return current.lastError ? current : null;
    }, 15_000);

  it('connects through the proxy, with its credentials, and links to ready', async () => {
    const proxy = await startProxy();
    proxies.push(proxy);
    const id = await startWithProxy(`http://waygate:${SECRET}@127.0.0.1:${proxy.port}`);
    await waitForStatus(gw, id, 'qr_ready', 15_000);
    const qrCode: string = (await gw.request('GET', `/api/sessions/${id}/qr`)).body.qrCode;
    await sim.admin.ok('/mock-phone/scan-qr', { qr: qrCode, phone: nextPhone() });
    await waitForStatus(gw, id, 'ready', 15_000);

    const simHost = new URL(sim.gatewayEnv.WA_WEBSOCKET_URL ?? '').host;
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(proxy.tunnels).toContain(simHost);
    const basic = `Basic ${Buffer.from(`waygate:${SECRET}`).toString('base64')}`;
    expect(proxy.authorizations.every((value) => value === basic)).toBe(true);

    const masked = await gw.request('GET', `/api/sessions/${id}/proxy`);
    expect(masked.body).toEqual({
      enabled: true,
      proxyType: 'http',
      proxyHost: `127.0.0.1:${proxy.port}`,
      hasCredentials: true,
    });
    expect(masked.text).not.toContain(SECRET);
  }, 60_000);

  it.each([
    ['a closed port', async () => closedPort()],
    [
      'a 403 to CONNECT',
      async () => {
        const proxy = await startProxy(403);
        proxies.push(proxy);
        return proxy.port;
      },
    ],
  ])(
    'a proxy that refuses (%s): lastError names the proxy, never its credentials',
    async (_label, portOf) => {
      const port = await portOf();
      const id = await startWithProxy(`http://waygate:${SECRET}@127.0.0.1:${port}`, {
        reconnectBaseDelay: 60_000,
      });
      const down = await firstError(id);
      expect(down.status).toBe('disconnected');
      expect(down.lastError).toContain(
        `Cannot reach the WhatsApp server through the proxy 127.0.0.1:${port}`,
      );
      expect(down.lastError).not.toContain(SECRET);
      const list = await gw.request('GET', '/api/sessions');
      expect(list.text).not.toContain(SECRET);
    },
    30_000,
  );

  it('a socks proxy refuses the start (not supported yet) instead of connecting directly', async () => {
    const id = await startWithProxy(`socks5://waygate:${SECRET}@127.0.0.1:1080`, {
      reconnectBaseDelay: 60_000,
    });
    const down = await firstError(id);
    expect(down.lastError).toContain('socks5 proxies are not supported yet (proxy 127.0.0.1:1080)');
    expect(down.lastError).not.toContain(SECRET);
  }, 30_000);
});
