/** Outgoing content (shared/domain/outgoing-content.ts) in the shape Baileys' sendMessage takes. */
import type { AnyMessageContent } from '@whiskeysockets/baileys';
import type { OutgoingContent } from '#shared/domain/outgoing-content.js';
import { toBaileysJid } from './baileys-jids.js';

export function toBaileysContent(content: OutgoingContent): AnyMessageContent {
  switch (content.type) {
    case 'text':
      return {
        text: content.text,
        ...(content.mentions ? { mentions: content.mentions.map(toBaileysJid) } : {}),
      };
    default:
      return unsendable(content.type);
  }
}

/** Compile-time exhaustiveness: a new content kind fails to build here until the engine can send it. */
function unsendable(type: never): never {
  throw new Error(`The Baileys engine cannot send ${String(type)} content`);
}
