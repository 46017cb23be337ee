/**
 * A session's proxy with the real Baileys engine against the simulator, for every proxy type a session may name:
 * its connection goes through a real local proxy (an HTTP CONNECT proxy, a SOCKS5 one with username and password,
 * a SOCKS4a one), links to ready, and its media uploads and downloads go through the same proxy (the proxy saw
 * tunnels to the simulator's media host, and the bytes arrived whole both ways). A proxy that refuses (a closed
 * port, a 403 to CONNECT, wrong SOCKS5 credentials) leaves a lastError that names the proxy by host:port, and no
 * answer, error or lastError ever carries the proxy URL's credentials.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Message } from '#shared/domain/message.js';
import { closedPort } from '#tests/helpers/closed-port.js';
import { phoneSequence } from '#tests/helpers/link-session.js';
import { fetchMedia } from '#tests/helpers/served-media.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import {
  sessionName,
  startTestGateway,
  type TestGateway,
  waitFor,
  waitForStatus,
} from '#tests/helpers/test-gateway.js';
import { startConnectProxy, startSocksProxy, type TestProxy } from '#tests/helpers/test-proxies.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

unrefBaileysUploadTimeouts();

const SECRET = 'pr0xy-s3cret';
const nextPhone = phoneSequence('1557');
const CONTACT = `1557${String(process.pid % 10_000).padStart(4, '0')}900`;
const CONTACT_ID = `${CONTACT}@c.us`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface SessionBody {
  id: string;
  status: string;
  lastError: string | null;
}

describe('Baileys engine: the session proxy', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let mediaHost: string;
  const proxies: TestProxy[] = [];
  const track = async (started: Promise<TestProxy>) => {
    const proxy = await started;
    proxies.push(proxy);
    return proxy;
  };

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    gw = await startTestGateway(sim.gatewayEnv);
    mediaHost = new URL(sim.mediaUrl).host;
    await sim.admin.ok('/contacts', { number: CONTACT, name: 'Petra' });
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

  /** Starts a session through `proxyUrl` and links it by QR to `phone`; resolves once ready. */
  async function linkThrough(proxyUrl: string, phone: string): Promise<string> {
    const id = await startWithProxy(proxyUrl);
    await waitForStatus(gw, id, 'qr_ready', 15_000);
    const qrCode: string = (await gw.request('GET', `/api/sessions/${id}/qr`)).body.qrCode;
    await sim.admin.ok('/mock-phone/scan-qr', { qr: qrCode, phone });
    await waitForStatus(gw, id, 'ready', 15_000);
    return id;
  }

  const mediaTunnels = (proxy: TestProxy) => proxy.tunnels.filter((target) => target === mediaHost).length;

  /** An image sent (uploaded) and one received (downloaded), each through `proxy`, both arriving whole. */
  async function mediaBothWaysThrough(proxy: TestProxy, id: string, phone: string): Promise<void> {
    const before = mediaTunnels(proxy);
    const sent = randomBytes(5_000);
    const res = await gw.request('POST', `/api/sessions/${id}/messages/send-image`, {
      body: { chatId: CONTACT_ID, data: sent.toString('base64'), mimetype: 'image/png' },
    });
    expect(res.status).toBe(201);
    const waMessageId = (res.body as Message).waMessageId ?? '';
    await sim.admin.receivedOne(CONTACT, waMessageId, 20_000);
    expect((await sim.admin.media(CONTACT, waMessageId)).sha256).toBe(sha256(sent));
    const afterUpload = mediaTunnels(proxy);
    expect(afterUpload).toBeGreaterThan(before);

    const received = randomBytes(6_000);
    const { id: inboundId } = await sim.admin.ok<{ id: string }>(`/contacts/${CONTACT}/messages`, {
      to: phone,
      content: { type: 'image', data: received.toString('base64'), mimetype: 'image/png' },
    });
    const row = await waitFor(async () => {
      const page = await gw.request('GET', `/api/sessions/${id}/messages?chatId=${CONTACT_ID}`);
      return (page.body.messages as Message[]).find((m) => m.waMessageId === inboundId);
    }, 20_000);
    expect(row.metadata?.media).not.toHaveProperty('omitted');
    const file = await fetchMedia(gw, id, CONTACT_ID, inboundId);
    expect(sha256(file.bytes)).toBe(sha256(received));
    expect(mediaTunnels(proxy)).toBeGreaterThan(afterUpload);
  }

  it('http: connects through the proxy with its credentials, links, and moves media both ways through it', async () => {
    const proxy = await track(startConnectProxy());
    const phone = nextPhone();
    const id = await linkThrough(`http://waygate:${SECRET}@127.0.0.1:${proxy.port}`, phone);
    expect(proxy.tunnels).toContain(new URL(sim.gatewayEnv.WA_WEBSOCKET_URL ?? '').host);
    await mediaBothWaysThrough(proxy, id, phone);
    const basic = `Basic ${Buffer.from(`waygate:${SECRET}`).toString('base64')}`;
    expect(proxy.credentials.every((value) => value === basic)).toBe(true);

    const masked = await gw.request('GET', `/api/sessions/${id}/proxy`);
    expect(masked.body).toEqual({
      enabled: true,
      proxyType: 'http',
      proxyHost: `127.0.0.1:${proxy.port}`,
      hasCredentials: true,
    });
    expect(masked.text).not.toContain(SECRET);
  }, 90_000);

  it('socks5 with username and password: links and moves media both ways through the proxy', async () => {
    const proxy = await track(startSocksProxy({ user: 'waygate', pass: SECRET }));
    const phone = nextPhone();
    const id = await linkThrough(`socks5://waygate:${SECRET}@127.0.0.1:${proxy.port}`, phone);
    // Host names reach the proxy unresolved (the proxy resolves them), IP literals as such.
    expect(proxy.tunnels).toContain(new URL(sim.gatewayEnv.WA_WEBSOCKET_URL ?? '').host);
    await mediaBothWaysThrough(proxy, id, phone);
    expect(proxy.credentials.every((value) => value === `waygate:${SECRET}`)).toBe(true);
    expect((await gw.request('GET', `/api/sessions/${id}/proxy`)).body).toMatchObject({
      proxyType: 'socks5',
      hasCredentials: true,
    });
  }, 90_000);

  it('socks4: links to ready through the proxy', async () => {
    const proxy = await track(startSocksProxy());
    await linkThrough(`socks4://waygate@127.0.0.1:${proxy.port}`, nextPhone());
    expect(proxy.tunnels).toContain(new URL(sim.gatewayEnv.WA_WEBSOCKET_URL ?? '').host);
    expect(proxy.credentials.every((value) => value === 'waygate')).toBe(true);
  }, 60_000);

  /** The session once its first connection attempt failed (lastError set). */
  const firstError = (id: string) =>
    waitFor(async () => {
      const current = (await gw.request<SessionBody>('GET', `/api/sessions/${id}`)).body;
      return current.lastError ? current : null;
    }, 15_000);

  it.each([
    ['a closed port', 'http', async () => closedPort()],
    ['a 403 to CONNECT', 'http', async () => (await track(startConnectProxy(403))).port],
    ['a closed SOCKS5 port', 'socks5', async () => closedPort()],
    [
      'wrong SOCKS5 credentials',
      'socks5',
      async () => (await track(startSocksProxy({ user: 'waygate', pass: 'other' }))).port,
    ],
  ])(
    'a proxy that refuses (%s): lastError names the proxy, never its credentials',
    async (_label, scheme, portOf) => {
      const port = await portOf();
      const id = await startWithProxy(`${scheme}://waygate:${SECRET}@127.0.0.1:${port}`, {
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
});
