/**
 * A session whose engine cannot reach the WhatsApp server is never silent about it: `lastError` names the cause and
 * the next attempt, the failure is logged (warn, with the session id) and audited (`session_disconnected`, the first
 * failure of a streak and every 5th), and the QR and start answers say it. With the real Baileys engine: on the
 * default configuration (WhatsApp's own server, which this machine cannot reach), and against a refused local port.
 */

import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  type AuditRow,
  auditOf,
  createSession,
  expectError,
  settledAudit,
  waitForAudit,
} from '#tests/api/sessions-support.js';
import { closedPort } from '#tests/helpers/closed-port.js';
import { type GatewayProcess, spawnGateway } from '#tests/helpers/gateway-process.js';
import {
  type SessionBody,
  startTestGateway,
  type TestGateway,
  waitFor,
} from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

unrefBaileysUploadTimeouts();

const UNREACHABLE =
  /^Cannot reach the WhatsApp server \((.+)\); reconnecting in [\d a-z]+ \(attempt (\d+)\)$/;

describe('Baileys engine: a server it cannot reach', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('default configuration: lastError names the cause, the QR answer says it, the streak is audited on its 1st and 5th failure', async () => {
    // No WA_WEBSOCKET_URL: Baileys dials WhatsApp's own server (wss://web.whatsapp.com), unreachable here.
    const gw: TestGateway = await startTestGateway({ ENGINE: 'baileys' });
    cleanups.push(() => gw.close());
    // A long backoff: only the starts below make attempts.
    const { id } = await createSession(gw, { config: { reconnectBaseDelay: 60_000 } });
    const session = async () => (await gw.request<SessionBody>('GET', `/api/sessions/${id}`)).body;
    const failedAttempt = (attempt: number) =>
      waitFor(
        async () => {
          const current = await session();
          return UNREACHABLE.exec(current.lastError ?? '')?.[2] === String(attempt) ? current : null;
        },
        30_000,
        50,
      );

    const started = await gw.request<SessionBody>('POST', `/api/sessions/${id}/start`);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ status: 'initializing', lastError: null });
    const down = await failedAttempt(1);
    expect(down.status).toBe('disconnected');
    const cause = UNREACHABLE.exec(down.lastError ?? '')?.[1] ?? '';
    // A failed name lookup or connect, as Node reported it.
    expect(cause).toMatch(/^(getaddrinfo E[A-Z_]+ web\.whatsapp\.com|connect E[A-Z]+ .+)$/);

    const qr = expectError(await gw.request('GET', `/api/sessions/${id}/qr`), 400, 'QR_NOT_AVAILABLE');
    expect(qr.message).toMatch(/^QR code is not ready \(session is (disconnected|initializing)\): /);
    expect(qr.message).toContain(`Cannot reach the WhatsApp server (${cause})`);

    const [first] = await waitForAudit(gw, 'session_disconnected', id);
    expect(first).toMatchObject({
      severity: 'warn',
      metadata: {
        reason: `Cannot reach the WhatsApp server (${cause})`,
        attempt: 1,
        nextDelayMs: expect.any(Number),
      },
    });
    // Each start during the backoff tries again at once: failures 2 to 4 are not audited, the 5th is.
    for (let attempt = 2; attempt <= 5; attempt++) {
      if (attempt === 5) expect(await settledAudit(gw, 'session_disconnected', id)).toHaveLength(1);
      expect((await gw.request('POST', `/api/sessions/${id}/start`)).status).toBe(200);
      await failedAttempt(attempt);
    }
    const audited = await waitForAudit(gw, 'session_disconnected', id, 2);
    expect(audited.map((row) => row.metadata?.attempt)).toEqual([5, 1]);
    expect(await auditOf(gw, 'session_disconnected', id)).toHaveLength(2);
  }, 120_000);

  it('a refused local port: lastError, a warn log line with the session id, and a start during the next attempt names the last error; no credential of the URL leaks', async () => {
    const port = await closedPort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-e2e-unreachable-'));
    const gateway: GatewayProcess = await spawnGateway(dataDir, {
      ENGINE: 'baileys',
      WA_WEBSOCKET_URL: `ws://waygate:s3cret-pass@127.0.0.1:${port}/ws/chat`,
      BAILEYS_CONNECT_TIMEOUT_MS: '4000',
      RATE_LIMIT_MAX: '100000',
    });
    cleanups.push(async () => {
      await gateway.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const created = await gateway.request<SessionBody>('POST', '/api/sessions', {
      name: `unreachable-${process.pid}`,
      config: { reconnectBaseDelay: 1000 },
    });
    const { id } = created.body;
    expect((await gateway.request('POST', `/api/sessions/${id}/start`)).status).toBe(200);
    const refused = `Cannot reach the WhatsApp server (connect ECONNREFUSED 127.0.0.1:${port})`;
    const down = await waitFor(async () => {
      const { body } = await gateway.request<SessionBody>('GET', `/api/sessions/${id}`);
      return body.lastError ? body : null;
    }, 15_000);
    expect(down.lastError).toMatch(
      new RegExp(`^${escapeRegExp(refused)}; reconnecting in \\d+ s \\(attempt 1\\)$`),
    );
    const logged = await waitFor(() =>
      gateway.output.map(parseLine).find((line) => line?.sessionId === id && line.reason === refused),
    );
    expect(logged).toMatchObject({ level: 40, attempt: 1, nextDelayMs: expect.any(Number) });

    // Now something listens there but never answers the WebSocket upgrade: the next attempt (after ~1 s) hangs
    // until the connect deadline, in `initializing`, and a start meanwhile is refused naming the last error.
    const held: net.Socket[] = [];
    const blackHole = net.createServer((socket) => {
      held.push(socket);
    });
    await new Promise<void>((resolve) => blackHole.listen(port, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
    });
    await waitFor(
      async () =>
        held.length > 0 &&
        (await gateway.request<SessionBody>('GET', `/api/sessions/${id}`)).body.status === 'initializing',
      10_000,
    );
    const again = await gateway.request<{ code: string; message: string }>(
      'POST',
      `/api/sessions/${id}/start`,
    );
    expect(again).toMatchObject({ status: 400, body: { code: 'SESSION_ALREADY_STARTED' } });
    expect(again.body.message).toContain(`(initializing; last error: ${refused}; reconnecting in`);
    const timedOut = await waitFor(async () => {
      const { body } = await gateway.request<SessionBody>('GET', `/api/sessions/${id}`);
      return body.lastError?.includes('no answer') ? body : null;
    }, 15_000);
    expect(timedOut.lastError).toMatch(
      /^Cannot reach the WhatsApp server \(no answer within 4000 ms\); reconnecting in \d+ s \(attempt \d+\)$/,
    );

    const audit = await gateway.request<{ data: AuditRow[] }>(
      'GET',
      `/api/audit?action=session_disconnected&sessionId=${id}`,
    );
    const qr = await gateway.request('GET', `/api/sessions/${id}/qr`);
    for (const text of [JSON.stringify(audit.body), JSON.stringify(qr.body), ...gateway.output]) {
      expect(text).not.toContain('s3cret-pass');
    }
  }, 60_000);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}
