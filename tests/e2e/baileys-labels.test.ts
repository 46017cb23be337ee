/**
 * Labels end to end: the real Baileys client inside the gateway and the simulator's phone. A label the API creates,
 * changes or deletes, and a chat it tags or untags, reaches the account's phone over app-state sync (`label_edit`,
 * `label_jid` in `regular`), read back from the phone's own view. Baileys keeps no labels: an upsert that leaves the
 * name or the colour out is refused before anything is written (WhatsApp would erase what it leaves out), and
 * reading labels stays 501.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectError, expectValidation } from '#tests/api/sessions-support.js';
import { phoneSequence } from '#tests/helpers/link-session.js';
import type { AdminClient } from '#tests/wa-sim/harness/admin-client.js';
import { type SimulatedSession, startSimulatedSession } from './sim-session.js';

const nextPhone = phoneSequence('1552');
const ALICE = `1552${String(process.pid % 1000).padStart(3, '0')}8000`;

describe('labels with the Baileys engine against the simulator', () => {
  let linked: SimulatedSession;
  const aliceChat = `${ALICE}@c.us`;
  const aliceJid = `${ALICE}@s.whatsapp.net`;

  beforeAll(async () => {
    linked = await startSimulatedSession(nextPhone(), [ALICE]);
  }, 30_000);
  afterAll(async () => {
    await linked?.gw.close();
    await linked?.sim.stop();
  });

  const call = (method: string, path: string, body?: unknown) =>
    linked.gw.request(
      method,
      `/api/sessions/${linked.sessionId}/labels${path}`,
      body === undefined ? {} : { body },
    );
  const atPhone = (id: string, pick: Parameters<AdminClient['labelWhen']>[2]) =>
    linked.sim.admin.labelWhen(linked.phone, id, pick, 15_000);

  it('PUT creates a label and changes it: the phone shows it', async () => {
    expect((await call('PUT', '/3', { name: 'VIP', color: 1 })).body).toEqual({ success: true });
    expect(await atPhone('3', (label) => label.name === 'VIP')).toEqual({
      id: '3',
      name: 'VIP',
      color: 1,
      deleted: false,
      chats: [],
    });
    expect((await call('PUT', '/3', { name: 'VIP clients', color: 13 })).body).toEqual({ success: true });
    await atPhone('3', (label) => label.name === 'VIP clients' && label.color === 13);
  });

  it('PUT with only a name or only a colour is refused; nothing reaches the phone', async () => {
    const regular = async () =>
      (
        await linked.sim.admin.get<{ appState: Record<string, { version: number }> }>(
          `/accounts/${linked.phone}`,
        )
      ).body.appState.regular?.version;
    const before = await regular();
    expect(before).toBeGreaterThan(0);
    expectValidation(await call('PUT', '/3', { color: 5 }), 'body.name');
    expectValidation(await call('PUT', '/3', { name: 'Renamed' }), 'body.color');
    // An upsert answers once its patch is uploaded: one that went through would show as a later version.
    expect(await regular()).toBe(before);
    expect(await atPhone('3', () => true)).toMatchObject({ name: 'VIP clients', color: 13 });
  });

  it('POST …/labels/chat/{chatId} tags the chat and DELETE …/{labelId} untags it, at the phone', async () => {
    const tagged = await call('POST', `/chat/${encodeURIComponent(aliceChat)}`, { labelId: '3' });
    expect(tagged.body).toEqual({ success: true });
    await atPhone('3', (label) => label.chats.includes(aliceJid));
    expect((await linked.sim.admin.labels(linked.phone)).chats[aliceJid]).toEqual(['3']);
    const untagged = await call('DELETE', `/chat/${encodeURIComponent(aliceChat)}/3`);
    expect(untagged.body).toEqual({ success: true });
    await atPhone('3', (label) => label.chats.length === 0);
  });

  it('DELETE deletes the label at the phone', async () => {
    expect((await call('DELETE', '/3')).body).toEqual({ success: true });
    expect(await atPhone('3', (label) => label.deleted)).toMatchObject({ id: '3', deleted: true });
  });

  it('reading labels is not the Baileys engine’s (501), whatever the phone has', async () => {
    await linked.sim.admin.ok(`/accounts/${linked.phone}/labels/4`, { name: 'From the phone', color: 2 });
    expectError(await call('GET', ''), 501, 'ENGINE_UNSUPPORTED');
    expectError(await call('GET', '/4'), 501, 'ENGINE_UNSUPPORTED');
  });
});
