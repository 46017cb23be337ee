/**
 * An aws-mode host stopped with SIGTERM during a burst of sends hands its work over: it stops receiving from SQS,
 * finishes the sends under way or returns the rest to the queue, stops its engines, releases its leases, queues a
 * `resume` start command for each session it ran and exits 0. Another host then takes the session as soon as it
 * receives that command (or a send of the session), long before the lease would have lapsed (the TTL here is a
 * minute) and long before its next sweep (two minutes), without a new QR, and every send the API accepted reaches
 * the contact exactly once. The second test stops an idle host, so nothing but the hand-over can move the session.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type AwsCluster, type ClusterHost, startAwsCluster } from '#tests/helpers/aws-cluster.js';
import {
  type ContactMessage,
  type LinkedSession,
  linkSession,
  liveOwner,
  simAccount,
} from '#tests/helpers/aws-cluster-sessions.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';

/**
 * A lease and a sweep interval that both outlast the test's bound: only the release and the hand-over let another
 * host take the session in time.
 */
const LEASES = { ttlMs: 60_000, renewMs: 20_000, sweepMs: 120_000 };
/** The queued hand-over received, then a Baileys reconnect and login on a busy 2-core machine. */
const TAKEOVER_BOUND_MS = 20_000;
const PREFIX = `1551${String(process.pid % 10_000).padStart(4, '0')}`;
const CONTACT = `${PREFIX}900`;
const BURST = 40;
/** SIGTERM once this many sends of the burst were answered. */
const SIGTERM_AT = 10;

let sim: SimulatorProcess;
let cluster: AwsCluster;
let victim: ClusterHost;
let survivor: ClusterHost;
/** The session the first test moves to the survivor (the second one moves it on again). */
let moved: LinkedSession | null = null;

beforeAll(async () => {
  sim = await startSimulatorProcess();
  await sim.admin.ok('/contacts', { number: CONTACT, name: 'Drain contact' });
  cluster = await startAwsCluster({
    leases: LEASES,
    env: {
      ...sim.gatewayEnv,
      SEND_WAIT_MS: '1',
      ENGINE_TEARDOWN_TIMEOUT_MS: '2000',
      COMMAND_VISIBILITY_TIMEOUT_S: '5',
    },
  });
  [victim, survivor] = await Promise.all([cluster.startHost('node-a'), cluster.startHost('node-b')]);
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  await sim?.stop();
}, 90_000);

/**
 * Waits (within the bound) until the session is ready on `heir` under its live lease, then checks it was started
 * once there: one more login than `loginsBefore`, never two live connections.
 */
async function takenOver(
  session: Pick<LinkedSession, 'id' | 'phone'>,
  heir: ClusterHost,
  loginsBefore: number,
) {
  await waitFor(
    async () => {
      const row = await cluster.row(session.id);
      if (row.status !== 'ready' || liveOwner(row) !== heir.nodeId) return false;
      // The heir's claim is written before its resume write (`initializing`), so the row reads `ready` under its
      // lease for a moment before the engine even starts: the heir's login is what ends the hand-over.
      const device = (await simAccount(sim, session.phone)).devices[0];
      return (device?.logins ?? 0) > loginsBefore && device?.liveConnections === 1;
    },
    TAKEOVER_BOUND_MS,
    100,
  ).catch(async (error: unknown) => {
    const account = await simAccount(sim, session.phone);
    const row = await cluster.row(session.id);
    throw new Error(
      `${String(error)}; the row: ${JSON.stringify(row)}; the account: ${JSON.stringify(account)}`,
    );
  });
  const account = await simAccount(sim, session.phone);
  expect(account.devices).toEqual([
    expect.objectContaining({ loggedOut: false, liveConnections: 1, maxLiveConnections: 1 }),
  ]);
  expect(account.devices[0]?.logins).toBe(loginsBefore + 1);
}

describe('an aws-mode host stopped with SIGTERM', () => {
  it('exits 0, releases its session to the other host at once, and loses or repeats no send', async () => {
    // Linked on the victim: the survivor's receives are held while the start command waits in the queue.
    survivor.holdCommands(true);
    let session: LinkedSession | null = null;
    for (let attempt = 0; !session; attempt++) {
      if (attempt === 3) throw new Error('node-a claimed none of its starts');
      const linked = await linkSession(cluster, sim, `${PREFIX}${String(attempt + 1).padStart(3, '0')}`);
      if (liveOwner(await cluster.row(linked.id)) === victim.nodeId) session = linked;
    }
    survivor.holdCommands(false);
    const { id, phone } = session;
    moved = session;
    const loginsBefore = (await simAccount(sim, phone)).devices[0]?.logins ?? 0;

    let answered = 0;
    let stopping: Promise<void> | null = null;
    let stoppedAt = 0;
    const sends = await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const res = await cluster.api('POST', `/api/sessions/${id}/messages/send-text`, {
          chatId: `${CONTACT}@c.us`,
          text: `burst ${i}`,
        });
        if (++answered === SIGTERM_AT) {
          stoppedAt = Date.now();
          stopping = victim.stop();
        }
        return res;
      }),
    );
    await stopping;
    expect([victim.child.exitCode, victim.child.signalCode]).toEqual([0, null]);
    // A send is accepted (201), or refused while the survivor reconnects the session (400 SESSION_NOT_READY, which
    // a client retries later): nothing in between, and every accepted one must arrive.
    const accepted = sends.filter((res) => res.status === 201);
    const refused = sends.filter((res) => res.status !== 201);
    expect(refused.map((res) => [res.status, res.body.code])).toEqual(
      refused.map(() => [400, 'SESSION_NOT_READY']),
    );
    expect(accepted.length).toBeGreaterThanOrEqual(SIGTERM_AT);
    const ids: string[] = accepted.map((res) => res.body.waMessageId);
    expect(new Set(ids).size).toBe(accepted.length);

    // The lease was released and the session handed over: the survivor takes it at once, long before the TTL.
    await takenOver({ id, phone }, survivor, loginsBefore);
    const takeoverMs = Date.now() - stoppedAt;

    // Every accepted send settles sent and reaches the contact once.
    const received = await waitFor(
      async () => {
        const all = (await sim.admin.get<ContactMessage[]>(`/contacts/${CONTACT}/messages`)).body;
        const got = new Set(all.map((m) => m.id));
        return ids.every((messageId) => got.has(messageId)) ? all : null;
      },
      60_000,
      250,
    ).catch(async (error: unknown) => {
      // Which sends are missing, and what their rows say.
      const page = await cluster.api('GET', `/api/sessions/${id}/messages?limit=1000`);
      const statuses = page.body.messages.map((m: { waMessageId: string; status: string }) => [
        m.waMessageId,
        m.status,
      ]);
      throw new Error(`${String(error)}; the rows: ${JSON.stringify(statuses)}`);
    });
    expect(ids.filter((messageId) => received.filter((m) => m.id === messageId).length !== 1)).toEqual([]);
    const rows = await waitFor(
      async () => {
        const page = await cluster.api('GET', `/api/sessions/${id}/messages?limit=1000`);
        const mine = page.body.messages.filter((m: { waMessageId: string }) => ids.includes(m.waMessageId));
        return mine.length === ids.length && mine.every((m: { status: string }) => m.status !== 'pending')
          ? mine
          : null;
      },
      30_000,
      250,
    );
    expect(rows.filter((m: { status: string }) => m.status === 'failed')).toEqual([]);
    process.stdout.write(
      `host SIGTERM: ${accepted.length} of ${BURST} sends accepted (${refused.length} refused while the session ` +
        `moved), all reached the contact once; session ready on ${survivor.nodeId} ` +
        `${takeoverMs} ms after the signal (lease TTL ${LEASES.ttlMs} ms, sweep ${LEASES.sweepMs} ms)\n`,
    );
  }, 180_000);

  it('hands an idle session over to a live host at once, on the queued resume and not at a sweep', async () => {
    if (!moved) throw new Error('the first test moved no session');
    const { id, phone } = moved;
    // Booted while the survivor holds a live lease: nothing to adopt now, and its first sweep is two minutes away.
    const heir = await cluster.startHost('node-c');
    expect(liveOwner(await cluster.row(id))).toBe(survivor.nodeId);
    const loginsBefore = (await simAccount(sim, phone)).devices[0]?.logins ?? 0;
    const stoppedAt = Date.now();
    await survivor.stop();
    expect([survivor.child.exitCode, survivor.child.signalCode]).toEqual([0, null]);
    await takenOver({ id, phone }, heir, loginsBefore);
    const takeoverMs = Date.now() - stoppedAt;
    process.stdout.write(
      `host SIGTERM (idle): session ready on ${heir.nodeId} ${takeoverMs} ms after the signal ` +
        `(lease TTL ${LEASES.ttlMs} ms, sweep ${LEASES.sweepMs} ms)\n`,
    );
  }, 120_000);
});
