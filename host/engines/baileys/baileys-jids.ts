/**
 * Addresses between Baileys and the engine port: the neutral form (`<number>@c.us`, `<id>@g.us`; never
 * `@s.whatsapp.net` or a `:device` suffix) and back, and the phone-number form of a LID-first address.
 */
import { jidDecode } from '@whiskeysockets/baileys';

/** `15550001111:3@s.whatsapp.net` → `15550001111@c.us`; groups and other servers keep their id. */
export function toNeutralJid(jid: string): string {
  const decoded = jidDecode(jid);
  if (!decoded) return jid;
  if (decoded.server === 's.whatsapp.net' || decoded.server === 'c.us') return `${decoded.user}@c.us`;
  return `${decoded.user}@${decoded.server}`;
}

/** `15550001111@c.us` → `15550001111@s.whatsapp.net`; group ids pass through. */
export function toBaileysJid(chatId: string): string {
  return chatId.endsWith('@c.us') ? `${chatId.slice(0, -'@c.us'.length)}@s.whatsapp.net` : chatId;
}

/** The phone-number form of an address: Baileys 7 may report a LID first and the phone number as its "alt". */
export function preferPhone(jid: string | null | undefined, alt: string | null | undefined): string | null {
  if (!jid) return alt ?? null;
  return jid.endsWith('@lid') && alt ? alt : jid;
}

/** The LID ↔ phone pairing an address and its "alt" make, in neutral form, when one is each. */
export function aliasOf(
  jid: string | null | undefined,
  alt: string | null | undefined,
): { lid: string; phone: string } | null {
  if (!jid || !alt) return null;
  const [lid, phone] = jid.endsWith('@lid') ? [jid, alt] : [alt, jid];
  if (!lid.endsWith('@lid') || !phone.endsWith('@s.whatsapp.net')) return null;
  return { lid: toNeutralJid(lid), phone: toNeutralJid(phone) };
}
