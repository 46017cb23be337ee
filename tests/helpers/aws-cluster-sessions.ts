/**
 * Sessions of an aws-mode cluster (tests/helpers/aws-cluster.ts) on the simulated network: linking by QR through the
 * API, the simulator's view of a linked account, and a monitor that records every status and owner a session's row
 * goes through, so a test can tell what happened between two polls of its own.
 */
import { expect } from '@jest/globals';
import type { Session } from '#shared/domain/session.js';
import type { AwsCluster } from './aws-cluster.js';
import type { SimulatorProcess } from './simulator-process.js';
import { sessionName, waitFor } from './test-gateway.js';

export interface LinkedSession {
  id: string;
  phone: string;
}

/** A linked account as the simulator's admin API shows it (`GET /admin/accounts/{phone}`). */
export interface SimAccount {
  phone: string;
  liveConnections: number;
  maxLiveConnections: number;
  devices: {
    deviceId: number;
    jid: string;
    loggedOut: boolean;
    liveConnections: number;
    maxLiveConnections: number;
    logins: number;
    replacedConnections: number;
  }[];
}

export async function simAccount(sim: SimulatorProcess, phone: string): Promise<SimAccount> {
  const reply = await sim.admin.get<SimAccount>(`/accounts/${phone}`);
  if (reply.status !== 200) throw new Error(`no simulator account ${phone}: ${reply.status}`);
  return reply.body;
}

/** Create, start, show the QR (an owner-directed call), let the phone scan it, wait for `ready`. */
export async function linkSession(
  cluster: AwsCluster,
  sim: SimulatorProcess,
  phone: string,
): Promise<LinkedSession> {
  const created = await cluster.api('POST', '/api/sessions', { name: sessionName('mn') });
  expect(created.status).toBe(201);
  const id: string = created.body.id;
  expect((await cluster.api('POST', `/api/sessions/${id}/start`)).status).toBe(200);
  let last: unknown = null;
  const qr = await waitFor(
    async () => {
      const res = await cluster.api<{ qrCode?: string }>('GET', `/api/sessions/${id}/qr`);
      last = res;
      return res.status === 200 ? res.body.qrCode : null;
    },
    30_000,
    100,
  ).catch((error: unknown) => {
    throw new Error(`no QR for ${id} (last answer ${JSON.stringify(last)}): ${String(error)}`);
  });
  await sim.admin.ok('/mock-phone/scan-qr', { qr, phone });
  await waitFor(
    async () => {
      const res = await cluster.api('GET', `/api/sessions/${id}`);
      last = res.body;
      return res.body.status === 'ready';
    },
    30_000,
    100,
  ).catch((error: unknown) => {
    throw new Error(`session ${id} not ready (last ${JSON.stringify(last)}): ${String(error)}`);
  });
  return { id, phone };
}

/** A text as a simulated contact received it (`GET /admin/contacts/{number}/messages`), decrypted. */
export interface ContactMessage {
  id: string;
  from: string;
  text?: string;
}

/**
 * A text each way through the API: sent through `session` to `contact`, who must decrypt it under its pre-generated
 * id, then one from `contact`, which must be stored as the session's incoming message.
 */
export async function exchangeTexts(
  cluster: AwsCluster,
  sim: SimulatorProcess,
  session: LinkedSession,
  contact: string,
  label: string,
): Promise<void> {
  const text = `${label} from ${session.phone}`;
  const sent = await cluster.api('POST', `/api/sessions/${session.id}/messages/send-text`, {
    chatId: `${contact}@c.us`,
    text,
  });
  expect(sent.status).toBe(201);
  const decrypted = await waitFor(
    async () =>
      (await sim.admin.get<ContactMessage[]>(`/contacts/${contact}/messages`)).body.find(
        (m) => m.id === sent.body.waMessageId,
      ),
    20_000,
    100,
  );
  expect(decrypted).toMatchObject({ text, from: expect.stringContaining(session.phone) });

  const reply = `${label} to ${session.phone}`;
  const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${contact}/messages`, {
    to: session.phone,
    text: reply,
  });
  const stored = await waitFor(
    async () => {
      const page = await cluster.api('GET', `/api/sessions/${session.id}/messages?from=${contact}`);
      return page.body.messages.find((m: { waMessageId: string }) => m.waMessageId === id);
    },
    20_000,
    100,
  );
  expect(stored).toMatchObject({ direction: 'incoming', body: reply });
}

/** The node holding the session's live lease, or null. */
export function liveOwner(row: Session, now = Date.now()): string | null {
  if (!row.nodeId || !row.leaseExpiresAt) return null;
  return Date.parse(row.leaseExpiresAt) > now ? row.nodeId : null;
}

/** One change of a row, as the monitor saw it. */
export interface RowChange {
  at: number;
  status: Session['status'];
  nodeId: string | null;
  phone: string | null;
}

/**
 * Polls the rows of `ids` every `intervalMs` and keeps each change of (status, nodeId, phone), so a test can assert
 * on the whole path (never `qr_ready`, one owner change) instead of on the polls it happened to make.
 */
export class RowMonitor {
  readonly changes = new Map<string, RowChange[]>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> = Promise.resolve();
  private readonly errors: unknown[] = [];

  constructor(
    private readonly cluster: AwsCluster,
    private readonly ids: readonly string[],
    private readonly intervalMs = 100,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => {
      this.polling = this.polling.then(() => this.poll());
    }, this.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // One last look, so the record ends with the rows as they stand now, not as of the previous tick.
    this.polling = this.polling.then(() => this.poll());
    await this.polling;
    if (this.errors.length > 0) throw new Error(`row monitor failed: ${String(this.errors[0])}`);
  }

  /** The statuses session `id` went through, in order, without repeats. */
  statuses(id: string): string[] {
    return (this.changes.get(id) ?? []).map((change) => change.status).filter(notRepeated);
  }

  /** The owners session `id` went through, in order, without repeats. */
  owners(id: string): (string | null)[] {
    return (this.changes.get(id) ?? []).map((change) => change.nodeId).filter(notRepeated);
  }

  private async poll(): Promise<void> {
    try {
      await Promise.all(
        this.ids.map(async (id) => {
          const row = await this.cluster.row(id);
          const seen = this.changes.get(id) ?? [];
          const last = seen.at(-1);
          if (last?.status === row.status && last.nodeId === row.nodeId && last.phone === row.phone) return;
          seen.push({ at: Date.now(), status: row.status, nodeId: row.nodeId, phone: row.phone });
          this.changes.set(id, seen);
        }),
      );
    } catch (error) {
      this.errors.push(error);
    }
  }
}

function notRepeated<T>(value: T, index: number, all: T[]): boolean {
  return index === 0 || all[index - 1] !== value;
}
