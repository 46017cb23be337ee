/**
 * No `message.received` delivery is lost when the gateway dies: the whole gateway (a child process with the real
 * Baileys engine; the simulator in a process of its own) is SIGKILLed while simulator contacts write to the linked
 * account, restarted on the same DATA_DIR, and a real receiver in this process counts deliveries after
 * deduplicating on the idempotency key. Every text the network delivered to the device must produce exactly one
 * delivery (under one key, signed both ways): once with the receiver healthy, once with the receiver down at the
 * moment of the kill (those deliveries were retrying; their outbox entries are relayed again after the restart).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Message } from '#shared/domain/message.js';
import { MAX_WEBHOOK_RETRY_COUNT } from '#shared/domain/webhook.js';
import { expectEachDeliveredOnce, keysByMessageId } from '#tests/helpers/delivered-once.js';
import { exited, type GatewayProcess, spawnGateway } from '#tests/helpers/gateway-process.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook-receiver.js';
import { allStored, contactsWrite, incomingRows, type SentText } from './inbound-support.js';
import { linkProcessSession, readyAfterRestart } from './process-session.js';

const PREFIX = `1557${String(process.pid % 10_000).padStart(4, '0')}`;
const PHONE = `${PREFIX}001`;
const CONTACTS = [1, 2, 3, 4].map((n) => `${PREFIX}90${n}`);
const SECRET = `whsec_${Buffer.from('crash test key, thirty-two bytes').toString('base64')}`;
/** Relayed again 1 s after a dead process left them; retried after 1 s, doubling each time. */
const GATEWAY_ENV = {
  RATE_LIMIT_MAX: '100000',
  SSRF_ALLOWED_HOSTS: '127.0.0.1',
  OUTBOX_SWEEP_AFTER_MS: '1000',
  OUTBOX_SWEEP_INTERVAL_MS: '500',
  WEBHOOK_RETRY_DELAY: '1000',
};

/**
 * Inline delivery, and delivery through the embedded webhook queue. A job the killed process had received comes
 * back after its visibility timeout: 12 s (one 10-s attempt fits in it) instead of the default minute.
 */
const MODES: [string, Record<string, string>][] = [
  ['inline', {}],
  ['QUEUE_ENABLED=true', { QUEUE_ENABLED: 'true', WEBHOOK_VISIBILITY_TIMEOUT_S: '12' }],
];

describe.each(MODES)(
  'webhooks (%s): a gateway killed during an inbound burst delivers every message.received exactly once',
  (mode, modeEnv) => {
    let sim: SimulatorProcess;
    let receiver: WebhookReceiver;
    let dataDir: string;
    let sessionId: string;
    const gateways: GatewayProcess[] = [];

    const start = async (): Promise<GatewayProcess> => {
      const gateway = await spawnGateway(dataDir, { ...sim.gatewayEnv, ...GATEWAY_ENV, ...modeEnv });
      gateways.push(gateway);
      return gateway;
    };
    const current = (): GatewayProcess => gateways.at(-1) as GatewayProcess;
    const rows = async () =>
      incomingRows(
        async (url) => (await current().request<{ messages: Message[] }>('GET', url)).body,
        sessionId,
      );

    const kill = async (): Promise<void> => {
      const gateway = current();
      gateway.child.kill('SIGKILL');
      await exited(gateway.child);
      expect(gateway.child.signalCode).toBe('SIGKILL');
    };

    const expectAllDeliveredOnce = async (texts: readonly SentText[], label: string) => {
      await waitFor(async () => allStored(await rows(), texts), 90_000, 250);
      await expectEachDeliveredOnce(receiver, texts, `${mode}, ${label}`, 60_000);
    };

    beforeAll(async () => {
      sim = await startSimulatorProcess();
      receiver = await startWebhookReceiver(SECRET);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-e2e-webhook-crash-'));
      const gateway = await start();
      sessionId = await linkProcessSession(gateway, sim, PHONE, 'webhook-crash');
      const created = await gateway.request('POST', `/api/sessions/${sessionId}/webhooks`, {
        url: receiver.url,
        events: ['message.received'],
        secret: SECRET,
        retryCount: MAX_WEBHOOK_RETRY_COUNT,
      });
      expect(created.status).toBe(201);
    }, 60_000);
    afterAll(async () => {
      await Promise.all(gateways.map((gateway) => gateway.stop()));
      await receiver?.close();
      await sim?.stop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    it('killed mid-burst of 1,000 inbound texts with the receiver healthy', async () => {
      const writing = contactsWrite(sim, CONTACTS, PHONE, 250, 'healthy');
      const atKill = await waitFor(
        () => {
          const delivered = keysByMessageId(receiver).size;
          return delivered >= 150 ? delivered : null;
        },
        60_000,
        5,
      );
      await kill();
      console.info(`${mode}, healthy: killed with ${atKill} texts delivered`);
      const restarted = await start();
      await readyAfterRestart(restarted, sessionId, []);
      const texts = await writing;
      expect(texts).toHaveLength(1000);
      await expectAllDeliveredOnce(texts, 'healthy');
    }, 240_000);

    it('killed mid-burst with the receiver down at the kill', async () => {
      const before = keysByMessageId(receiver).size;
      const writing = contactsWrite(sim, CONTACTS, PHONE, 50, 'receiver down');
      await waitFor(() => (keysByMessageId(receiver).size >= before + 40 ? true : null), 60_000, 5);
      receiver.set({ down: true });
      // Some texts arrive while the receiver refuses them: their deliveries are waiting for a retry at the kill.
      await waitFor(
        async () => (await rows()).filter((m) => m.body?.startsWith('receiver down')).length >= 100,
        60_000,
        50,
      );
      await kill();
      receiver.set({});
      const restarted = await start();
      await readyAfterRestart(restarted, sessionId, []);
      await expectAllDeliveredOnce(await writing, 'receiver down');
    }, 240_000);
  },
);
