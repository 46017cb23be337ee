/**
 * No `message.received` delivery is lost when an aws-mode host dies while relaying: the host (a child process with
 * the real Baileys engine, DEPLOYMENT_MODE=aws) stores each inbound row and its outbox entry in one DynamoDB
 * transaction and relays the entry to the SQS webhook queue, from which the delivery Lambda (serverless offline, fed
 * by the SQS trigger script) posts it to a real receiver. The host is SIGKILLed during a burst of inbound texts,
 * restarted under the same node id, and the receiver, after deduplicating on the idempotency key, must hold exactly
 * one verified delivery per text the simulator sent.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAX_WEBHOOK_RETRY_COUNT } from '#shared/domain/webhook.js';
import { contactsWrite } from '#tests/e2e/inbound-support.js';
import { type AwsCluster, type ClusterHost, startAwsCluster } from '#tests/helpers/aws-cluster.js';
import { type LinkedSession, linkSession } from '#tests/helpers/aws-cluster-sessions.js';
import { expectEachDeliveredOnce, keysByMessageId } from '#tests/helpers/delivered-once.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook-receiver.js';

const PREFIX = `1556${String(process.pid % 10_000).padStart(4, '0')}`;
const PHONE = `${PREFIX}001`;
const CONTACTS = [1, 2, 3, 4].map((n) => `${PREFIX}90${n}`);
const PER_CONTACT = 100;
/** The kill lands once this many texts have reached the receiver. */
const KILL_AFTER = 60;
const SECRET = `whsec_${Buffer.from('aws relay crash key, 32 bytes!!!').toString('base64')}`;
const LEASES = { ttlMs: 6000, renewMs: 2000, sweepMs: 2000 };

describe('aws mode: a host killed while relaying delivers every message.received exactly once', () => {
  let sim: SimulatorProcess;
  let cluster: AwsCluster;
  let receiver: WebhookReceiver;
  let session: LinkedSession;
  let host: ClusterHost;

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    receiver = await startWebhookReceiver(SECRET);
    cluster = await startAwsCluster({
      leases: LEASES,
      env: {
        ...sim.gatewayEnv,
        SSRF_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_RETRY_DELAY: '1000',
      },
      // Entries a dead host left are relayed again 1 s after they were written.
      hostEnv: { OUTBOX_SWEEP_AFTER_MS: '1000', OUTBOX_SWEEP_INTERVAL_MS: '500', LOG_LEVEL: 'warn' },
    });
    host = await cluster.startHost('relay-host');
    session = await linkSession(cluster, sim, PHONE);
    const created = await cluster.api('POST', `/api/sessions/${session.id}/webhooks`, {
      url: receiver.url,
      events: ['message.received'],
      secret: SECRET,
      retryCount: MAX_WEBHOOK_RETRY_COUNT,
    });
    expect(created.status).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
    await receiver?.close();
    await sim?.stop();
  }, 60_000);

  it('SIGKILL mid-burst, restart under the same node id: one delivery per text, signed both ways', async () => {
    const writing = contactsWrite(sim, CONTACTS, PHONE, PER_CONTACT, 'aws relay');
    const atKill = await waitFor(
      () => {
        const delivered = keysByMessageId(receiver).size;
        return delivered >= KILL_AFTER ? delivered : null;
      },
      120_000,
      5,
    );
    await host.kill();
    const texts = await writing;
    console.info(`aws relay: killed with ${atKill} of ${texts.length} texts delivered`);
    host = await cluster.startHost('relay-host');

    await expectEachDeliveredOnce(receiver, texts, 'aws relay', 150_000);
  }, 300_000);
});
