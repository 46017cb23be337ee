/**
 * The Baileys engine refuses to start on a Baileys without Waygate's receipt patch, and the installed one has it
 * (a `npm install` whose postinstall did not run would otherwise go unnoticed until a message is lost).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { assertReceiptPatch } from '#host/engines/baileys/receipt-patch.js';

describe('the Baileys receipt patch', () => {
  it('is applied to the installed Baileys', () => {
    expect(() => assertReceiptPatch()).not.toThrow();
    const source = readFileSync(
      createRequire(import.meta.url).resolve('@whiskeysockets/baileys/lib/Socket/messages-recv.js'),
      'utf8',
    );
    // The hook is awaited inside the keys transaction that commits the decrypted Signal state, before the receipt.
    const hook = source.indexOf('await config.beforeMessageReceipt(msg)');
    expect(hook).toBeGreaterThan(source.indexOf('await authState.keys.transaction(async () => {'));
    expect(source.indexOf('await sendReceipt(receiptJid', hook)).toBeGreaterThan(hook);
  });

  it("runs the inbound transaction under the sends' mutex (the account's own id, as relayMessage)", () => {
    const require = createRequire(import.meta.url);
    const receiving = readFileSync(
      require.resolve('@whiskeysockets/baileys/lib/Socket/messages-recv.js'),
      'utf8',
    );
    const sending = readFileSync(
      require.resolve('@whiskeysockets/baileys/lib/Socket/messages-send.js'),
      'utf8',
    );
    // A send and an inbound decrypt under different keys each advance the contact's Signal session from their own
    // copy and the later commit overwrites the other (tests/e2e/baileys-messages.test.ts, texts both ways).
    expect(receiving).toContain('const txKey = authState.creds.me.id;');
    expect(sending).toMatch(/const meId = assertMeId\(authState\.creds\);[\s\S]*?\}, meId\);/);
  });

  it('is required: an unpatched Baileys is refused with a way out', () => {
    expect(() =>
      assertReceiptPatch('await sendReceipt(msg.key.remoteJid, participant, [msg.key.id], type);'),
    ).toThrow(/lacks the receipt patch.*npm install/);
  });
});
