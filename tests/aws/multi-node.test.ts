/**
 * Multi-node aws mode (issue #12): two hosts that share no directory (each its own DATA_DIR and AUTH_DIR, as separate
 * containers would) behind the offline API, running real Baileys engines against the simulator. Sessions are linked
 * by QR on both hosts; one host is killed with SIGKILL. Its sessions must be adopted by the other within the lease
 * TTL plus one sweep (plus the reconnect) without a new QR, then send and receive, with never two live engines for
 * one session (the simulator counts each linked device's overlapping connections), and owner-directed calls must go
 * to the new owner. A restart of the killed host must not take sessions back while their lease is live.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type ApiAnswer,
  type AwsCluster,
  type ClusterHost,
  startAwsCluster,
} from '#tests/helpers/aws-cluster.js';
import {
  type ContactMessage,
  exchangeTexts,
  type LinkedSession,
  linkSession,
  liveOwner,
  RowMonitor,
  simAccount,
} from '#tests/helpers/aws-cluster-sessions.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';

const LEASES = { ttlMs: 6000, renewMs: 2000, sweepMs: 2000 };
/** Lease expiry, the sweep that notices it, then a Baileys reconnect and login on a busy 2-core machine. */
const ADOPTION_BOUND_MS = LEASES.ttlMs + LEASES.sweepMs + 10_000;
/** COMMAND_VISIBILITY_TIMEOUT_S: how soon a command whose handling failed is delivered again. */
const VISIBILITY_TIMEOUT_S = 10;
const PREFIX = `1558${String(process.pid % 10_000).padStart(4, '0')}`;
const CONTACT = `${PREFIX}900`;

let sim: SimulatorProcess;
let cluster: AwsCluster;
const hosts = new Map<string, ClusterHost>();
const sessions: LinkedSession[] = [];
const ownerAtLink = new Map<string, string>();
const owned = (nodeId: string) => [...ownerAtLink.values()].filter((owner) => owner === nodeId).length;
const ownerAtKill = new Map<string, string>();
const loginsAtKill = new Map<string, number>();
let victim: ClusterHost;
let survivor: ClusterHost;
let monitor: RowMonitor;
let duringFailover: Promise<ApiAnswer>;

beforeAll(async () => {
  sim = await startSimulatorProcess();
  await sim.admin.ok('/contacts', { number: CONTACT, name: 'Multi-node contact' });
  cluster = await startAwsCluster({
    leases: LEASES,
    env: {
      ...sim.gatewayEnv,
      SEND_WAIT_MS: '5000',
      ENGINE_TEARDOWN_TIMEOUT_MS: '2000',
      COMMAND_VISIBILITY_TIMEOUT_S: String(VISIBILITY_TIMEOUT_S),
    },
  });
  for (const host of await Promise.all([cluster.startHost('node-a'), cluster.startHost('node-b')])) {
    hosts.set(host.nodeId, host);
  }
}, 240_000);

afterAll(async () => {
  await monitor?.stop().catch(() => {});
  await cluster?.stop();
  await sim?.stop();
}, 90_000);

const adopted = () => sessions.filter((s) => ownerAtKill.get(s.id) === victim.nodeId);
const kept = () => sessions.filter((s) => ownerAtKill.get(s.id) === survivor.nodeId);

const sendAndReceive = (session: LinkedSession, label: string) =>
  exchangeTexts(cluster, sim, session, CONTACT, label);

describe('two aws-mode hosts sharing no directory', () => {
  it('links sessions by QR on both hosts, each owned by the host that claimed its start', async () => {
    const a = hosts.get('node-a') as ClusterHost;
    const b = hosts.get('node-b') as ClusterHost;
    // Two sessions start on A while B's receives are held, then one on B while A's are. A host's sweep may still
    // adopt a session whose start command waits in the queue: that one stays where it went, and another is linked.
    for (const [target, other, wanted] of [
      [a, b, 2],
      [b, a, 1],
    ] as const) {
      other.holdCommands(true);
      for (let attempt = 0; owned(target.nodeId) < wanted; attempt++) {
        if (attempt === wanted + 3) throw new Error(`${target.nodeId} claimed too few of its starts`);
        const phone = `${PREFIX}${String(sessions.length + 1).padStart(3, '0')}`;
        const linked = await linkSession(cluster, sim, phone);
        const row = await cluster.row(linked.id);
        const owner = liveOwner(row) as string;
        expect(hosts.get(owner)?.nodeUrl).toBe(row.nodeUrl);
        sessions.push(linked);
        ownerAtLink.set(linked.id, owner);
      }
      other.holdCommands(false);
    }
    for (const session of sessions) {
      const account = await simAccount(sim, session.phone);
      expect(account).toMatchObject({ liveConnections: 1, maxLiveConnections: 1 });
      expect(account.devices).toHaveLength(1);
    }
  }, 180_000);

  it('sends and receives through a session of each host', async () => {
    const byOwner = new Map<string, LinkedSession>();
    for (const session of sessions) {
      byOwner.set(liveOwner(await cluster.row(session.id)) as string, session);
    }
    for (const session of byOwner.values()) await sendAndReceive(session, 'before');
  }, 60_000);

  it('adopts the sessions of a host killed with SIGKILL on the other within TTL + sweep, without a new QR', async () => {
    for (const session of sessions) {
      ownerAtKill.set(session.id, liveOwner(await cluster.row(session.id)) as string);
      loginsAtKill.set(session.id, (await simAccount(sim, session.phone)).devices[0]?.logins ?? 0);
    }
    victim = hosts.get('node-a') as ClusterHost;
    survivor = hosts.get('node-b') as ClusterHost;
    expect(adopted().length).toBeGreaterThan(1);
    expect(kept().length).toBeGreaterThan(0);

    // Kill right after a renewal, so the victim's lease is surely still live for the owner-directed call below.
    const first = adopted()[0] as LinkedSession;
    await waitFor(
      async () =>
        Date.parse((await cluster.row(first.id)).leaseExpiresAt ?? '') - Date.now() > LEASES.ttlMs - 1000,
      LEASES.renewMs * 3,
      50,
    );
    monitor = new RowMonitor(
      cluster,
      sessions.map((s) => s.id),
    );
    monitor.start();
    const killedAt = Date.now();
    await victim.kill();
    expect(victim.child.signalCode).toBe('SIGKILL');

    // While the dead owner's lease is live, owner-directed calls answer the retryable 409 and change nothing.
    const unreachable = await cluster.api('GET', `/api/sessions/${first.id}/qr`);
    expect(unreachable.status).toBe(409);
    expect(unreachable.body).toMatchObject({ code: 'SESSION_OWNER_UNREACHABLE', retryable: true });
    // A send accepted now (the row is still ready) cannot reach the dead owner: the survivor that takes the command
    // gets no answer from the owner and leaves it to the queue, which redelivers it after the visibility timeout.
    duringFailover = cluster.api('POST', `/api/sessions/${first.id}/messages/send-text`, {
      chatId: `${CONTACT}@c.us`,
      text: 'sent during the failover',
    });
    // The kernel closed the dead process's sockets: its devices are offline, nothing else is.
    for (const session of adopted()) {
      await waitFor(async () => (await simAccount(sim, session.phone)).liveConnections === 0, 5000, 50);
    }

    await waitFor(
      async () => {
        const rows = await Promise.all(sessions.map((session) => cluster.row(session.id)));
        return rows.every((row) => row.status === 'ready' && liveOwner(row) === survivor.nodeId);
      },
      ADOPTION_BOUND_MS + 5000,
      100,
    );

    for (const session of sessions) {
      const row = await cluster.row(session.id);
      expect(row).toMatchObject({ status: 'ready', nodeId: survivor.nodeId, nodeUrl: survivor.nodeUrl });
      expect((await cluster.api('GET', `/api/sessions/${session.id}`)).body).toMatchObject({
        status: 'ready',
        phone: session.phone,
        lastError: null,
      });
      const account = await simAccount(sim, session.phone);
      // The same linked device, one connection, never two at once; adopted ones logged in once more.
      expect(account.devices).toEqual([
        expect.objectContaining({ deviceId: 1, loggedOut: false, liveConnections: 1, maxLiveConnections: 1 }),
      ]);
      const moved = ownerAtKill.get(session.id) === victim.nodeId;
      expect(account.devices[0]?.logins).toBe((loginsAtKill.get(session.id) ?? 0) + (moved ? 1 : 0));
    }
    await monitor.stop();
    // When each adopted session was first seen ready on the survivor after it resumed (the monitor polls every
    // 100 ms). The claim itself may be seen first, still showing the dead owner's `ready`: that is not readiness.
    const readyAt = adopted().map((session) => {
      const changes = monitor.changes.get(session.id) ?? [];
      const resumed = changes.findLastIndex((change) => change.status !== 'ready');
      return (
        changes
          .slice(resumed + 1)
          .find((change) => change.status === 'ready' && change.nodeId === survivor.nodeId)?.at ?? Infinity
      );
    });
    const adoptionMs = Math.max(...readyAt) - killedAt;
    process.stdout.write(
      `multi-node: ${adopted().length} sessions ready on ${survivor.nodeId} ${adoptionMs} ms after the kill ` +
        `(lease TTL ${LEASES.ttlMs} ms, sweep ${LEASES.sweepMs} ms)\n`,
    );
    expect(adoptionMs).toBeLessThanOrEqual(ADOPTION_BOUND_MS);
    const during = await duringFailover;
    expect([during.status, during.body.status]).toEqual([201, 'pending']);
    for (const session of adopted()) {
      expect(monitor.statuses(session.id)).not.toContain('qr_ready');
      expect(monitor.statuses(session.id)).not.toContain('failed');
      expect(monitor.statuses(session.id).at(-1)).toBe('ready');
      expect(monitor.owners(session.id).filter(Boolean)).toEqual([victim.nodeId, survivor.nodeId]);
      expect(new Set(monitor.changes.get(session.id)?.map((c) => c.phone))).toEqual(new Set([session.phone]));
    }
    for (const session of kept()) {
      // Untouched by the adoption: ready throughout, on the survivor.
      expect(monitor.statuses(session.id)).toEqual(['ready']);
      expect(monitor.owners(session.id)).toEqual([survivor.nodeId]);
    }
  }, 90_000);

  it('sends and receives through every adopted session; messages decrypt both ways', async () => {
    // The send accepted during the failover goes out once, from the new owner, when the queue redelivers it.
    const { body: pending } = await duringFailover;
    const inbox = await waitFor(
      async () => {
        const all = (await sim.admin.get<ContactMessage[]>(`/contacts/${CONTACT}/messages`)).body;
        const copies = all.filter((m) => m.id === pending.waMessageId);
        return copies.length > 0 ? copies : null;
      },
      VISIBILITY_TIMEOUT_S * 1000 + 15_000,
      200,
    );
    expect(inbox).toEqual([expect.objectContaining({ text: 'sent during the failover' })]);
    for (const session of adopted()) await sendAndReceive(session, 'after');
    const history = await cluster.api(
      'GET',
      `/api/sessions/${pending.sessionId}/messages?chatId=${CONTACT}%40c.us`,
    );
    const row = history.body.messages.find((m: { id: string }) => m.id === pending.id);
    expect(['sent', 'delivered', 'read']).toContain(row?.status);
    expect(
      (await sim.admin.get<ContactMessage[]>(`/contacts/${CONTACT}/messages`)).body.filter(
        (m) => m.id === pending.waMessageId,
      ),
    ).toHaveLength(1);
    const health = await sim.admin.get<{ stats: { decryptFailures: number } }>('/health');
    expect(health.body.stats.decryptFailures).toBe(0);
  }, 90_000);

  it('routes owner-directed calls to the new owner', async () => {
    const session = adopted()[0] as LinkedSession;
    expect((await cluster.row(session.id)).nodeUrl).toBe(survivor.nodeUrl);
    // What the owner's engine says of a linked session (a dead owner's lease would answer 409 unreachable).
    const qr = await cluster.api('GET', `/api/sessions/${session.id}/qr`);
    expect([qr.status, qr.body.code]).toEqual([400, 'ALREADY_AUTHENTICATED']);
    // An engine operation row takes the same way (function → host RPC → the owner's Baileys → the network): a check
    // answers what the simulator knows, a block is on the account's list at the phone, an unblock takes it off.
    const { lid } = (await sim.admin.get<{ lid: string }>(`/contacts/${CONTACT}`)).body;
    const check = await cluster.api('GET', `/api/sessions/${session.id}/contacts/check/${CONTACT}`);
    expect([check.status, check.body]).toEqual([
      200,
      { number: CONTACT, exists: true, whatsappId: `${CONTACT}@c.us`, lid },
    ]);
    // The contact book the first owner's engine learnt at link (WhatsApp sends the address book once) is in the
    // session's state in DynamoDB: the new owner's engine lists it.
    const listed = await cluster.api('GET', `/api/sessions/${session.id}/contacts`);
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual(
      expect.objectContaining({ id: `${CONTACT}@c.us`, lid, name: 'Multi-node contact', isMyContact: true }),
    );
    const blocklist = async () =>
      (await sim.admin.get<{ blocked: { number: string }[] }>(`/accounts/${session.phone}/blocklist`)).body
        .blocked;
    const contactPath = `/api/sessions/${session.id}/contacts/${CONTACT}%40c.us/block`;
    expect((await cluster.api('POST', contactPath)).status).toBe(200);
    expect((await blocklist()).map((b) => b.number)).toEqual([CONTACT]);
    expect((await cluster.api('DELETE', contactPath)).status).toBe(200);
    expect(await blocklist()).toEqual([]);
    // Stop reaches the survivor's engine, which leaves the network; the lease then goes back.
    const stopped = await cluster.api('POST', `/api/sessions/${session.id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ status: 'disconnected' });
    await waitFor(async () => (await simAccount(sim, session.phone)).liveConnections === 0, 10_000, 50);
    await waitFor(async () => (await cluster.row(session.id)).nodeId === null, LEASES.renewMs * 3, 100);
    // Started again, it comes back on the only live host from its stored credentials: no QR.
    expect((await cluster.api('POST', `/api/sessions/${session.id}/start`)).status).toBe(200);
    const row = await waitFor(
      async () => {
        const current = await cluster.row(session.id);
        expect(current.status).not.toBe('qr_ready');
        return current.status === 'ready' ? current : null;
      },
      30_000,
      100,
    );
    expect(row).toMatchObject({ nodeId: survivor.nodeId, nodeUrl: survivor.nodeUrl, phone: session.phone });
    expect(await simAccount(sim, session.phone)).toMatchObject({ liveConnections: 1, maxLiveConnections: 1 });
  }, 60_000);

  it('a restarted host takes nothing whose lease is live, and forwards commands to the owner', async () => {
    const before = new Map<string, number>();
    for (const s of sessions) before.set(s.id, (await simAccount(sim, s.phone)).devices[0]?.logins ?? 0);
    const restarted = await cluster.startHost(victim.nodeId);
    // Its boot adoption ran before the banner; two sweeps more, with every lease renewed meanwhile.
    await new Promise((resolve) => setTimeout(resolve, LEASES.sweepMs * 2 + 500));
    expect(restarted.child.exitCode).toBeNull();
    for (const session of sessions) {
      expect(liveOwner(await cluster.row(session.id))).toBe(survivor.nodeId);
      expect((await simAccount(sim, session.phone)).devices[0]?.logins).toBe(before.get(session.id));
    }
    // With the owner's receives held, the restarted host takes every send and forwards it to the owner over RPC.
    survivor.holdCommands(true);
    for (const session of sessions) await sendAndReceive(session, 'forwarded');
    survivor.holdCommands(false);
    const forwarded = restarted.output
      .filter((line) => line.includes('command forwarded to the owner'))
      .map((line) => JSON.parse(line));
    expect(forwarded.map((line) => line.sessionId).sort()).toEqual(sessions.map((s) => s.id).sort());
    for (const line of forwarded)
      expect(line).toMatchObject({ owner: survivor.nodeUrl, type: 'message.send' });
    for (const session of sessions) {
      expect(await simAccount(sim, session.phone)).toMatchObject({
        liveConnections: 1,
        maxLiveConnections: 1,
      });
    }
  }, 120_000);
});
