/**
 * Account restriction (reachout timelock): the server announces it to every connected companion with a `mex`
 * notification, which Baileys reports as `connection.update { reachoutTimeLock }`, repeats it at login, answers the
 * client's own query for it, refuses 1:1 sends with a 463 ack while it lasts, and announces the lift.
 */
import { jest } from '@jest/globals';
import {
  ReachoutTimelockEnforcementType,
  type ReachoutTimelockState,
  WAMessageStatus,
  type WASocket,
} from '@whiskeysockets/baileys';
import {
  closeClient,
  connect,
  type LinkedClient,
  linkByQr,
  nextOutcome,
} from '#tests/wa-sim/harness/client.js';
import { restoreMemoryAuth } from '#tests/wa-sim/harness/memory-auth.js';
import { waitForStatus } from '#tests/wa-sim/harness/messages.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { eventually, waitForEvent } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

interface AccountView {
  restricted: boolean;
  restrictionEndsAt?: string;
  enforcementType?: string;
}

interface RestrictionReply extends AccountView {
  phone: string;
  notified: number;
}

let sim: TestSim;
let first: LinkedClient;
let second: LinkedClient;
const PHONE = '15550008001';
const CONTACT = '15550008900';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;

/** The next `reachoutTimeLock` Baileys reports on `sock`. */
function nextTimelock(sock: WASocket, timeoutMs = 10_000): Promise<ReachoutTimelockState> {
  return waitForEvent(sock, 'connection.update', (update) => update.reachoutTimeLock, timeoutMs);
}

async function restrict(body: Record<string, unknown>): Promise<RestrictionReply> {
  return sim.admin.ok<RestrictionReply>(`/accounts/${PHONE}/restriction`, body);
}

async function contactTexts(): Promise<string[]> {
  const inbox = (await sim.admin.get<Array<{ text?: string }>>(`/contacts/${CONTACT}/messages`)).body;
  return inbox.map((message) => message.text ?? '');
}

/** Seconds between `date` and now + `seconds` (0 when the date is exactly that far ahead). */
function driftFrom(date: Date | string | undefined, seconds: number): number {
  return Math.abs(new Date(date ?? 0).getTime() / 1000 - (Date.now() / 1000 + seconds));
}

beforeAll(async () => {
  sim = await startTestSim();
  first = await linkByQr(sim, { phone: PHONE });
  second = await linkByQr(sim, { phone: PHONE });
  await sim.admin.ok('/contacts', { number: CONTACT });
});

afterAll(async () => {
  await closeClient(first.sock);
  await closeClient(second.sock);
  await sim.stop();
});

describe('restricting an account', () => {
  it('tells every connected companion: connection.update reachoutTimeLock active, with its end and type', async () => {
    const heardByFirst = nextTimelock(first.sock);
    const heardBySecond = nextTimelock(second.sock);
    const reply = await restrict({
      restricted: true,
      expiresInSeconds: 600,
      enforcementType: 'BIZ_QUALITY',
    });
    expect(reply).toMatchObject({
      phone: PHONE,
      restricted: true,
      enforcementType: 'BIZ_QUALITY',
      notified: 2,
    });
    expect(driftFrom(reply.restrictionEndsAt, 600)).toBeLessThan(5);
    for (const lock of [await heardByFirst, await heardBySecond]) {
      expect(lock).toMatchObject({
        isActive: true,
        enforcementType: ReachoutTimelockEnforcementType.BIZ_QUALITY,
      });
      expect(lock.timeEnforcementEnds).toBeInstanceOf(Date);
      expect(driftFrom(lock.timeEnforcementEnds, 600)).toBeLessThan(5);
    }
    const view = (await sim.admin.get<AccountView>(`/accounts/${PHONE}`)).body;
    expect(view).toMatchObject({ restricted: true, enforcementType: 'BIZ_QUALITY' });
  });

  it('acks 1:1 sends with error 463 and does not deliver them', async () => {
    const errors: Array<{ id: string; parameters: string[] }> = [];
    const onError = (id: string | null | undefined, status: unknown, parameters?: string[] | null): void => {
      if (status === WAMessageStatus.ERROR) errors.push({ id: id ?? '', parameters: parameters ?? [] });
    };
    // While Baileys buffers events the error ack is merged into the message's own upsert: watch both.
    first.sock.ev.on('messages.update', (updates) => {
      for (const { key, update } of updates) onError(key.id, update.status, update.messageStubParameters);
    });
    first.sock.ev.on('messages.upsert', ({ messages }) => {
      for (const message of messages) onError(message.key.id, message.status, message.messageStubParameters);
    });
    const refused = await first.sock.sendMessage(CONTACT_JID, { text: 'while restricted' });
    const id = refused?.key.id ?? '';
    const error = await eventually(() => errors.find((entry) => entry.id === id), 10_000, 'the 463 ack');
    expect(error.parameters[0]).toBe('463');
    expect(await contactTexts()).not.toContain('while restricted');
  });

  it('answers the client’s own reachout-timelock query from the same state', async () => {
    const lock = await first.sock.fetchAccountReachoutTimelock();
    expect(lock).toMatchObject({ isActive: true, enforcementType: 'BIZ_QUALITY' });
    expect(driftFrom(lock.timeEnforcementEnds, 600)).toBeLessThan(30);
  });

  it('tells a companion again after it logs in while the account is restricted', async () => {
    const oldClosed = nextOutcome(first.sock);
    const sock = connect(sim.wsUrl, restoreMemoryAuth(first.auth.save()));
    const heard = nextTimelock(sock);
    const opened = nextOutcome(sock);
    expect(await oldClosed).toEqual({ connection: 'close', statusCode: 440 });
    first = { ...first, sock };
    expect(await opened).toEqual({ connection: 'open' });
    expect(await heard).toMatchObject({ isActive: true, enforcementType: 'BIZ_QUALITY' });
  });

  it('defaults to a DEFAULT timelock of an hour', async () => {
    const heard = nextTimelock(first.sock);
    const reply = await restrict({ restricted: true });
    expect(reply).toMatchObject({ restricted: true, enforcementType: 'DEFAULT', notified: 2 });
    const lock = await heard;
    expect(lock).toMatchObject({ isActive: true, enforcementType: ReachoutTimelockEnforcementType.DEFAULT });
    expect(driftFrom(lock.timeEnforcementEnds, 3600)).toBeLessThan(5);
  });

  it('rejects an unknown enforcement type or a non-positive duration', async () => {
    const badType = await sim.admin.post(`/accounts/${PHONE}/restriction`, {
      restricted: true,
      enforcementType: 'SPAM',
    });
    expect(badType.status).toBe(400);
    const badDuration = await sim.admin.post(`/accounts/${PHONE}/restriction`, {
      restricted: true,
      expiresInSeconds: 0,
    });
    expect(badDuration.status).toBe(400);
    expect((await sim.admin.post('/accounts/15559999999/restriction', { restricted: true })).status).toBe(
      404,
    );
  });
});

describe('lifting the restriction', () => {
  it('tells every connected companion: reachoutTimeLock inactive, and sends go through again', async () => {
    const heardByFirst = nextTimelock(first.sock);
    const heardBySecond = nextTimelock(second.sock);
    const reply = await restrict({ restricted: false });
    expect(reply).toEqual({ phone: PHONE, restricted: false, notified: 2 });
    expect(await heardByFirst).toMatchObject({ isActive: false });
    expect(await heardBySecond).toMatchObject({ isActive: false });
    expect(await first.sock.fetchAccountReachoutTimelock()).toMatchObject({ isActive: false });

    const sent = await first.sock.sendMessage(CONTACT_JID, { text: 'after the lift' });
    expect(await waitForStatus(first.sock, sent?.key.id ?? '', 3)).toBe(3);
    await eventually(async () => (await contactTexts()).includes('after the lift'), 10_000, 'the delivery');
  });

  it('says nothing at login once lifted', async () => {
    const timelocks: ReachoutTimelockState[] = [];
    const oldClosed = nextOutcome(second.sock);
    const sock = connect(sim.wsUrl, restoreMemoryAuth(second.auth.save()));
    sock.ev.on('connection.update', (update) => {
      if (update.reachoutTimeLock) timelocks.push(update.reachoutTimeLock);
    });
    expect(await nextOutcome(sock)).toEqual({ connection: 'open' });
    await oldClosed;
    second = { ...second, sock };
    // A round trip after the login, so a notification sent right after it would have been handled by now.
    await sock.fetchAccountReachoutTimelock();
    expect(timelocks).toEqual([
      { isActive: false, timeEnforcementEnds: undefined, enforcementType: 'DEFAULT' },
    ]);
  });
});
