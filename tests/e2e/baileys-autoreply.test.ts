/**
 * Autoreply rules end to end with the real Baileys engine and the simulated network: a contact's text that matches
 * a rule gets the rule's reply in its chat (the contact decrypts it), sent through the ordinary send path (an
 * outgoing row in history, a `message.sent` event); the cooldown is per (rule, chat) and 0 disables it; the rule
 * created first wins; disabled rules and the account's own messages never answer; and the cooldown is stored, so
 * it holds across a restart of the gateway. Every "no reply" is checked a bounded time after a later reply landed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';
import {
  autoreplyRows,
  contactSays,
  createRule,
  deleteRules,
  quietPeriod,
  received,
  waitForReplies,
} from './autoreply-support.js';

const nextPhone = phoneSequence('1551');
const PHONE = nextPhone();
const catchAll = (replyText: string, cooldownSeconds: number) => ({ replyText, cooldownSeconds });

describe('Autoreply rules against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  let sessionId: string;
  const events: GatewayEvent[] = [];
  const watch = (gateway: TestGateway) =>
    gateway.gateway.events.subscribe((event) => {
      events.push(event);
    });
  /** Resolves once the gateway published the message with this network id as received. */
  const handled = (id: string) =>
    waitFor(() => events.find((e) => e.event === 'message.received' && e.data.id === id), 15_000);

  beforeAll(async () => {
    unrefBaileysUploadTimeouts();
    sim = await startSimulatorProcess();
    gw = await startTestGateway(sim.gatewayEnv);
    watch(gw);
    sessionId = (await linkSessionByQr(gw, sim, PHONE)).id;
  }, 40_000);
  afterEach(async () => {
    await deleteRules(gw, sessionId);
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  it('answers a matching text in the contact’s chat, stored as outgoing in history and published as message.sent', async () => {
    const alice = nextPhone();
    const chatId = `${alice}@c.us`;
    const ruleId = await createRule(gw, sessionId, {
      replyText: 'We are open 9 to 5.',
      cooldownSeconds: 0,
      conditions: { conditions: [{ field: 'body', operator: 'contains', value: 'hours' }] },
    });

    await contactSays(sim, alice, PHONE, 'hello');
    await contactSays(sim, alice, PHONE, 'What are your opening HOURS?');

    const [reply] = await waitForReplies(sim, alice, 'We are open 9 to 5.');
    expect(reply?.from).toContain(PHONE);
    const [row] = await waitFor(async () => {
      const rows = await autoreplyRows(gw, sessionId, chatId);
      return rows[0] && rows[0].status !== 'pending' ? rows : null;
    }, 15_000);
    expect(row).toMatchObject({
      waMessageId: reply?.id,
      chatId,
      body: 'We are open 9 to 5.',
      direction: 'outgoing',
      metadata: { autoreply: ruleId },
    });
    const sent = await waitFor(() =>
      events.find((e) => e.event === 'message.sent' && e.data.messageId === row?.id),
    );
    expect(sent).toMatchObject({ sessionId, data: { id: reply?.id, chatId, body: 'We are open 9 to 5.' } });
    // "hello" did not match: with cooldown 0 it would have had a reply of its own.
    await quietPeriod();
    expect(await received(sim, alice, 'We are open 9 to 5.')).toHaveLength(1);
  }, 40_000);

  it('keeps quiet in a chat within the cooldown while another chat is answered', async () => {
    const [bob, carol] = [nextPhone(), nextPhone()];
    await createRule(gw, sessionId, catchAll('Auto: cooldown', 600));

    await contactSays(sim, bob, PHONE, 'first');
    await waitForReplies(sim, bob, 'Auto: cooldown');
    await handled(await contactSays(sim, bob, PHONE, 'second, within the cooldown'));
    await contactSays(sim, carol, PHONE, 'another chat');
    await waitForReplies(sim, carol, 'Auto: cooldown');

    await quietPeriod();
    expect(await received(sim, bob, 'Auto: cooldown')).toHaveLength(1);
    expect(await autoreplyRows(gw, sessionId, `${bob}@c.us`)).toHaveLength(1);
  }, 40_000);

  it('answers every text when the cooldown is 0', async () => {
    const dave = nextPhone();
    await createRule(gw, sessionId, catchAll('Auto: always', 0));

    for (const text of ['one', 'two', 'three']) await contactSays(sim, dave, PHONE, text);

    await waitForReplies(sim, dave, 'Auto: always', 3);
    await quietPeriod();
    expect(await received(sim, dave, 'Auto: always')).toHaveLength(3);
  }, 40_000);

  it('answers with the rule created first when several match, and with it alone', async () => {
    const erin = nextPhone();
    await createRule(gw, sessionId, catchAll('Auto: first rule', 60));
    await createRule(gw, sessionId, catchAll('Auto: second rule', 60));

    await contactSays(sim, erin, PHONE, 'hi');

    await waitForReplies(sim, erin, 'Auto: first rule');
    await quietPeriod();
    expect(await received(sim, erin, 'Auto: second rule')).toEqual([]);
  }, 40_000);

  it('never answers with a disabled rule, and follows a rule switched on or off at once', async () => {
    const frank = nextPhone();
    const switchedOn = await createRule(gw, sessionId, {
      ...catchAll('Auto: was disabled', 0),
      enabled: false,
    });
    const probe = await createRule(gw, sessionId, {
      ...catchAll('Auto: probe', 0),
      conditions: { conditions: [{ field: 'body', operator: 'contains', value: 'probe' }] },
    });

    // The disabled rule comes first and matches everything: the probe rule answers instead.
    await contactSays(sim, frank, PHONE, 'probe 1');
    await waitForReplies(sim, frank, 'Auto: probe');
    await quietPeriod();
    expect(await received(sim, frank, 'Auto: was disabled')).toEqual([]);

    const rules = `/api/sessions/${sessionId}/automation-rules`;
    expect((await gw.request('PUT', `${rules}/${probe}`, { body: { enabled: false } })).status).toBe(200);
    expect((await gw.request('PUT', `${rules}/${switchedOn}`, { body: { enabled: true } })).status).toBe(200);
    await contactSays(sim, frank, PHONE, 'probe 2');
    await waitForReplies(sim, frank, 'Auto: was disabled');
    await quietPeriod();
    expect(await received(sim, frank, 'Auto: probe')).toHaveLength(1);
  }, 40_000);

  it('never answers the account’s own messages: sent here, from another device of the account, or to self', async () => {
    const grace = nextPhone();
    await sim.admin.ok('/contacts', { number: grace, name: 'Grace' });
    await createRule(gw, sessionId, catchAll('Auto: anyone', 0));
    // A second device of the same account: its sends reach this session as the account's own messages.
    const device2 = (await linkSessionByQr(gw, sim, PHONE)).id;
    const send = async (from: string, chatId: string, text: string) => {
      const res = await gw.request('POST', `/api/sessions/${from}/messages/send-text`, {
        body: { chatId, text },
      });
      expect(res.status).toBe(201);
      await waitFor(() => events.find((e) => e.event === 'message.sent' && e.data.messageId === res.body.id));
    };
    try {
      await send(sessionId, `${grace}@c.us`, 'sent here');
      await send(device2, `${grace}@c.us`, 'sent from another device');
      await send(sessionId, `${PHONE}@c.us`, 'a note to self');
      await waitForReplies(sim, grace, 'sent from another device');
      // A contact's text afterwards is answered: the rule was live all along.
      await contactSays(sim, grace, PHONE, 'hello');
      await waitForReplies(sim, grace, 'Auto: anyone');

      await quietPeriod();
      expect(await received(sim, grace, 'Auto: anyone')).toHaveLength(1);
      expect(await autoreplyRows(gw, sessionId, `${PHONE}@c.us`)).toEqual([]);
    } finally {
      expect((await gw.request('DELETE', `/api/sessions/${device2}`)).status).toBeLessThan(300);
    }
  }, 60_000);

  it('does not answer the autoreply of another session of the gateway: two accounts never ping-pong', async () => {
    const [otherPhone, henry] = [nextPhone(), nextPhone()];
    const other = (await linkSessionByQr(gw, sim, otherPhone)).id;
    try {
      await createRule(gw, sessionId, catchAll('Auto: from one', 0));
      await createRule(gw, other, catchAll('Auto: from two', 0));

      // An ordinary message from one account to the other is answered like anyone's…
      const ping = await gw.request('POST', `/api/sessions/${sessionId}/messages/send-text`, {
        body: { chatId: `${otherPhone}@c.us`, text: 'ping from one' },
      });
      expect(ping.status).toBe(201);
      // …and that autoreply reaches the first account, which does not answer it.
      await waitFor(
        () =>
          events.find(
            (e) =>
              e.event === 'message.received' && e.sessionId === sessionId && e.data.body === 'Auto: from two',
          ),
        15_000,
      );
      await contactSays(sim, henry, PHONE, 'hello');
      await waitForReplies(sim, henry, 'Auto: from one');

      await quietPeriod();
      expect(await autoreplyRows(gw, other, `${PHONE}@c.us`)).toHaveLength(1);
      expect(await autoreplyRows(gw, sessionId, `${otherPhone}@c.us`)).toEqual([]);
    } finally {
      await deleteRules(gw, other);
    }
  }, 60_000);

  it('keeps a running cooldown across a restart of the gateway', async () => {
    const [ivan, judy] = [nextPhone(), nextPhone()];
    await createRule(gw, sessionId, catchAll('Auto: once an hour', 3600));
    await contactSays(sim, ivan, PHONE, 'before the restart');
    await waitForReplies(sim, ivan, 'Auto: once an hour');

    gw = await gw.restart();
    watch(gw);
    await waitForStatus(gw, sessionId, 'ready', 20_000);
    await handled(await contactSays(sim, ivan, PHONE, 'after the restart'));
    await contactSays(sim, judy, PHONE, 'a chat without a cooldown');
    await waitForReplies(sim, judy, 'Auto: once an hour');

    await quietPeriod();
    expect(await received(sim, ivan, 'Auto: once an hour')).toHaveLength(1);
  }, 60_000);
});
