/**
 * Calls from contacts: every connected companion of the called account gets the offer (Baileys `ev 'call'`,
 * status `offer`) and acks it; `rejectCall` is answered at once and marks the call rejected on the server. The
 * caller hanging up, the call timing out and the phone answering it reach every companion as `ev 'call'` with
 * status `terminate`, `timeout` and `accept`.
 */
import { jest } from '@jest/globals';
import type { WACallEvent, WASocket } from '@whiskeysockets/baileys';
import { closeClient, type LinkedClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { eventually, waitForEvent } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

interface CallView {
  callId: string;
  from: string;
  to: string;
  video: boolean;
  status: 'ringing' | 'rejected' | 'hungUp' | 'timedOut' | 'answered' | 'ended';
  offeredAt: string;
  devices: number;
  acks: number;
  rejectedAt?: string;
  rejectedBy?: string;
  answeredAt?: string;
  endedAt?: string;
}

let sim: TestSim;
let first: LinkedClient;
let second: LinkedClient;
const PHONE = '15550009001';
const CONTACT = '15550009900';
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`;

/** The next call offer `sock` reports. */
function nextOffer(sock: WASocket): Promise<WACallEvent> {
  return waitForEvent(sock, 'call', (calls) => calls.find((call) => call.status === 'offer'));
}

/** The next call event of `callId` with `status` that `sock` reports. */
function nextCallEvent(sock: WASocket, callId: string, status: WACallEvent['status']): Promise<WACallEvent> {
  return waitForEvent(sock, 'call', (events) =>
    events.find((event) => event.id === callId && event.status === status),
  );
}

/** Ends call `callId` the way `how` says (`POST …/calls/{callId}/end`). */
function end(callId: string, how: string) {
  return sim.admin.post<{ call: CallView; notified: number }>(`/contacts/${CONTACT}/calls/${callId}/end`, {
    how,
  });
}

async function call(body: Record<string, unknown>): Promise<{ callId: string; devices: number }> {
  return sim.admin.ok(`/contacts/${CONTACT}/call`, body);
}

async function calls(): Promise<CallView[]> {
  return (await sim.admin.get<CallView[]>(`/contacts/${CONTACT}/calls`)).body;
}

async function callView(callId: string): Promise<CallView | undefined> {
  return (await calls()).find((entry) => entry.callId === callId);
}

beforeAll(async () => {
  sim = await startTestSim();
  first = await linkByQr(sim, { phone: PHONE });
  second = await linkByQr(sim, { phone: PHONE });
});

afterAll(async () => {
  await closeClient(first.sock);
  await closeClient(second.sock);
  await sim.stop();
});

describe('a contact calls a linked account', () => {
  it('offers the call to every connected companion, which ack it; it keeps ringing', async () => {
    const heardByFirst = nextOffer(first.sock);
    const heardBySecond = nextOffer(second.sock);
    const placed = await call({ to: PHONE });
    expect(placed).toEqual({ callId: expect.stringMatching(/^[0-9A-F]{32}$/), devices: 2 });
    for (const offer of [await heardByFirst, await heardBySecond]) {
      expect(offer).toMatchObject({
        id: placed.callId,
        from: CONTACT_JID,
        chatId: CONTACT_JID,
        status: 'offer',
        isVideo: false,
        isGroup: false,
        offline: false,
      });
      expect(Math.abs(offer.date.getTime() - Date.now())).toBeLessThan(5_000);
    }
    const view = await eventually(
      async () => {
        const found = await callView(placed.callId);
        return found?.acks === 2 ? found : undefined;
      },
      10_000,
      'both companions acking the offer',
    );
    expect(view).toMatchObject({ from: CONTACT, to: PHONE, video: false, status: 'ringing', devices: 2 });
    expect(view.rejectedAt).toBeUndefined();
  });

  it('marks a video call as such', async () => {
    const heard = nextOffer(first.sock);
    const placed = await call({ to: PHONE, video: true });
    expect(await heard).toMatchObject({ id: placed.callId, isVideo: true });
    expect(await callView(placed.callId)).toMatchObject({ video: true, status: 'ringing' });
  });

  it('records the companion’s rejectCall, answered without waiting out Baileys’ query timeout', async () => {
    const heard = nextOffer(second.sock);
    const placed = await call({ to: PHONE });
    const offer = await heard;
    const started = Date.now();
    await second.sock.rejectCall(offer.id, offer.from);
    expect(Date.now() - started).toBeLessThan(5_000);
    const view = await callView(placed.callId);
    expect(view).toMatchObject({ status: 'rejected', rejectedBy: `${PHONE}:2@s.whatsapp.net` });
    expect(Number.isNaN(Date.parse(view?.rejectedAt ?? ''))).toBe(false);
    // A second reject of the same call changes nothing and is answered all the same.
    await first.sock.rejectCall(offer.id, offer.from);
    expect(await callView(placed.callId)).toMatchObject({ rejectedBy: `${PHONE}:2@s.whatsapp.net` });
  });

  it('lists the contact’s calls oldest first', async () => {
    const list = await calls();
    expect(list.map((entry) => entry.status)).toEqual(['ringing', 'ringing', 'rejected']);
    expect(list.map((entry) => entry.video)).toEqual([false, true, false]);
  });

  it('answers 404 for an unknown account or contact and 400 for a bad body', async () => {
    expect((await sim.admin.post(`/contacts/${CONTACT}/call`, { to: '15559999999' })).status).toBe(404);
    expect((await sim.admin.get('/contacts/15559999998/calls')).status).toBe(404);
    expect((await sim.admin.post(`/contacts/${CONTACT}/call`, { to: PHONE, video: 'yes' })).status).toBe(400);
    expect((await sim.admin.post(`/contacts/${CONTACT}/call`, {})).status).toBe(400);
  });
});

describe('a call ends without a reject', () => {
  it('tells every companion the caller hung up (terminate), and keeps the call as hungUp', async () => {
    const offered = nextOffer(first.sock);
    const placed = await call({ to: PHONE, video: true });
    await offered;
    const heard = [first, second].map((client) => nextCallEvent(client.sock, placed.callId, 'terminate'));
    const reply = await end(placed.callId, 'hangup');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ call: { callId: placed.callId, status: 'hungUp' }, notified: 2 });
    for (const event of await Promise.all(heard)) {
      // Baileys fills isVideo in from the offer it cached.
      expect(event).toMatchObject({ from: CONTACT_JID, chatId: CONTACT_JID, isVideo: true, offline: false });
    }
    expect(Number.isNaN(Date.parse((await callView(placed.callId))?.endedAt ?? ''))).toBe(false);
  });

  it('reports a call nobody answered as timeout', async () => {
    const placed = await call({ to: PHONE });
    const heard = nextCallEvent(first.sock, placed.callId, 'timeout');
    expect((await end(placed.callId, 'timeout')).body.call.status).toBe('timedOut');
    expect(await heard).toMatchObject({ id: placed.callId, from: CONTACT_JID });
  });

  it('reports a call answered on the phone as accept, then its hang-up as terminate', async () => {
    const placed = await call({ to: PHONE });
    const accepted = nextCallEvent(second.sock, placed.callId, 'accept');
    expect((await end(placed.callId, 'answered')).body.call).toMatchObject({
      status: 'answered',
      answeredAt: expect.any(String),
    });
    expect(await accepted).toMatchObject({ id: placed.callId, from: CONTACT_JID });
    const ended = nextCallEvent(second.sock, placed.callId, 'terminate');
    expect((await end(placed.callId, 'hangup')).body.call.status).toBe('ended');
    await ended;
  });

  it('answers 409 for a call no longer ringing, 404 for an unknown one and 400 for a bad how', async () => {
    const list = await calls();
    const rejected = list.find((entry) => entry.status === 'rejected');
    const timedOut = list.find((entry) => entry.status === 'timedOut');
    expect((await end(rejected?.callId ?? '', 'hangup')).status).toBe(409);
    expect((await end(timedOut?.callId ?? '', 'answered')).status).toBe(409);
    expect((await end(timedOut?.callId ?? '', 'hangup')).status).toBe(409);
    expect((await end('0123456789ABCDEF0123456789ABCDEF', 'hangup')).status).toBe(404);
    expect((await end(timedOut?.callId ?? '', 'dropped')).status).toBe(400);
  });

  it('keeps every call with its final status', async () => {
    const list = await calls();
    expect(list.map((entry) => entry.status)).toEqual([
      'ringing',
      'ringing',
      'rejected',
      'hungUp',
      'timedOut',
      'ended',
    ]);
  });
});
