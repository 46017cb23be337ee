/**
 * A contact's 1:1 messages addressed by phone number or by LID (`addressing` in the contact's config,
 * lid-addressing.ts), as the real Baileys client reads them: the key's `remoteJid` and `remoteJidAlt`, the LID ↔
 * phone pairing Baileys stores from the stanza, and the client's receipt, sent back to the LID, reaching the contact.
 */
import { jest } from '@jest/globals';
import { jidDecode, type WAMessage } from '@whiskeysockets/baileys';
import { waitForText } from '#tests/wa-sim/harness/messages.js';
import { type LinkedSim, startLinkedSim } from '#tests/wa-sim/harness/test-sim.js';
import { eventually } from '#tests/wa-sim/harness/wait.js';

jest.setTimeout(30_000);

const PHONE = '15550002101';
/** One contact per mode: Baileys keeps what it learnt of a contact, so each starts with nothing known. */
const BY_PN = '15550003101';
const BY_LID = '15550003102';
const LID_ONLY = '15550003103';

let linked: LinkedSim;
const lidOf: Record<string, string> = {};

beforeAll(async () => {
  // Strangers: the phone's address book would teach Baileys every pairing before the first message.
  linked = await startLinkedSim(PHONE, [BY_PN, BY_LID, LID_ONLY], { saved: false });
  for (const number of [BY_PN, BY_LID, LID_ONLY]) {
    lidOf[number] = (await linked.sim.admin.get<{ lid: string }>(`/contacts/${number}`)).body.lid;
  }
});
afterAll(async () => {
  await linked.stop();
});

/** `number` sends `text` under `addressing`; resolves with the upsert and the message's id once it arrived. */
async function sendAs(number: string, addressing: string, text: string): Promise<WAMessage> {
  await linked.sim.admin.ok(`/contacts/${number}/config`, { addressing });
  const arrived = waitForText(linked.client.sock, text);
  const { id } = await linked.sim.admin.ok<{ id: string }>(`/contacts/${number}/messages`, {
    to: PHONE,
    text,
  });
  const message = await arrived;
  expect(message.key.id).toBe(id);
  return message;
}

/** The phone number Baileys has stored for `lid`, as a bare number (null when it has none). */
async function storedPhoneOf(lid: string): Promise<string | null> {
  const pn = await linked.client.sock.signalRepository.lidMapping.getPNForLID(lid);
  return pn ? (jidDecode(pn)?.user ?? null) : null;
}

/** Resolves once the contact saw the client's delivery receipt for its message `id`. */
function deliveredAt(number: string, id: string): Promise<unknown> {
  return eventually(
    async () => (await linked.sim.admin.sent(number)).find((m) => m.id === id && m.status !== 'sent'),
    10_000,
    `the receipt of ${id} at ${number}`,
  );
}

it('pn (the default): from the phone number, the LID beside it as the alt', async () => {
  const contact = (await linked.sim.admin.get<{ config: { addressing: string } }>(`/contacts/${BY_PN}`)).body;
  expect(contact.config.addressing).toBe('pn');
  const message = await sendAs(BY_PN, 'pn', 'by number');
  expect(message.key).toMatchObject({
    remoteJid: `${BY_PN}@s.whatsapp.net`,
    remoteJidAlt: lidOf[BY_PN],
    addressingMode: 'pn',
  });
  expect(await storedPhoneOf(lidOf[BY_PN] as string)).toBe(BY_PN);
  await deliveredAt(BY_PN, message.key.id as string);
});

it('lid: from the LID, the phone number beside it; Baileys pairs the two and answers the LID', async () => {
  const lid = lidOf[BY_LID] as string;
  expect(await storedPhoneOf(lid)).toBeNull();
  const message = await sendAs(BY_LID, 'lid', 'by lid');
  expect(message.key).toMatchObject({
    remoteJid: lid,
    remoteJidAlt: `${BY_LID}@s.whatsapp.net`,
    addressingMode: 'lid',
    fromMe: false,
  });
  expect(message.pushName).toBe(`Contact ${BY_LID}`);
  expect(await storedPhoneOf(lid)).toBe(BY_LID);
  await deliveredAt(BY_LID, message.key.id as string);
  // The Signal session Baileys keeps under the LID goes on: the next message (msg, not pkmsg) decrypts too.
  const next = await sendAs(BY_LID, 'lid', 'by lid again');
  expect(next.key.remoteJid).toBe(lid);
});

it('lid-only: from the LID and nothing else; Baileys has no phone number for it', async () => {
  const lid = lidOf[LID_ONLY] as string;
  const message = await sendAs(LID_ONLY, 'lid-only', 'lid alone');
  expect(message.key.remoteJid).toBe(lid);
  expect(message.key.remoteJidAlt).toBeUndefined();
  expect(await storedPhoneOf(lid)).toBeNull();
  await deliveredAt(LID_ONLY, message.key.id as string);
});

it('refuses an unknown addressing mode', async () => {
  const reply = await linked.sim.admin.post(`/contacts/${BY_PN}/config`, { addressing: 'username' });
  expect(reply.status).toBe(400);
  expect(JSON.stringify(reply.body)).toContain('addressing');
});
