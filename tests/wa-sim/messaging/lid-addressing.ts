/**
 * How a contact's 1:1 messages name their sender on the wire. WhatsApp moved users to LIDs: a message comes either
 * from the phone number with the LID beside it, or from the LID with the phone number beside it, or, for a sender
 * whose number the recipient may not see, from the LID alone (whatsmeow#1014 shows such messages since late 2025).
 * Baileys 7 reads the other form as the key's `remoteJidAlt` and stores the pairing (`extractAddressingContext`,
 * `decodeMessageNode`); with the LID alone it has none to read. 1:1 stanzas carry no `addressing_mode` (Baileys
 * derives it from the sender's server).
 */
import { lidJid, pnJid } from '#tests/wa-sim/transport/binary.js';

/**
 * `pn`: `from` the phone number, `sender_lid` the LID (the default, as most of WhatsApp still sends). `lid`: `from`
 * the LID, `sender_pn` the phone number. `lid-only`: `from` the LID and no phone number.
 */
export const ADDRESSING_MODES = ['pn', 'lid', 'lid-only'] as const;
export type Addressing = (typeof ADDRESSING_MODES)[number];

/** The sender attributes of a 1:1 message from the user `number` (LID user `lid`) under `addressing`. */
export function directAddressing(
  addressing: Addressing,
  number: string,
  lid: string,
): Record<string, string> {
  switch (addressing) {
    case 'pn':
      return { from: pnJid(number), sender_lid: lidJid(lid) };
    case 'lid':
      return { from: lidJid(lid), sender_pn: pnJid(number) };
    case 'lid-only':
      return { from: lidJid(lid) };
  }
}
