/**
 * The Baileys engine's status port: a post is a message to `status@broadcast` that Baileys encrypts under the
 * account's status sender key for the devices of the recipients named with it (`statusJidList`, which WhatsApp does
 * not keep for us), sent under the id the host chose; a delete is the revoke of it to the same recipients. The
 * colour and typeface are options of Baileys' message generation, not fields of the content.
 */
import type { AnyMessageContent, proto, WASocket } from '@whiskeysockets/baileys';
import type { StatusPost } from '#shared/domain/status-requests.js';
import type { EngineStatus, StatusPostRequest } from '../ports/status.port.js';
import { toBaileysJid } from './baileys-jids.js';

export const STATUS_JID = 'status@broadcast';

export class BaileysStatus implements EngineStatus {
  constructor(
    private readonly socket: () => WASocket | null,
    /** Keeps what was sent, for a recipient that could not decrypt it and asks again. */
    private readonly remember: (statusId: string, message: proto.IMessage) => void,
  ) {}

  private open(): WASocket {
    const socket = this.socket();
    if (!socket) throw new Error('no open connection');
    return socket;
  }

  async post({ statusId, post, bytes, recipients }: StatusPostRequest): Promise<{ timestamp: number }> {
    const sent = await this.open().sendMessage(STATUS_JID, contentOf(post, bytes), {
      messageId: statusId,
      statusJidList: recipients.map(toBaileysJid),
      broadcast: true,
      ...('backgroundColor' in post && post.backgroundColor ? { backgroundColor: post.backgroundColor } : {}),
      ...('font' in post && post.font !== undefined ? { font: post.font } : {}),
    });
    if (sent?.message) this.remember(statusId, sent.message);
    return { timestamp: Number(sent?.messageTimestamp ?? Math.floor(Date.now() / 1000)) };
  }

  async revoke(statusId: string, recipients: readonly string[]): Promise<void> {
    await this.open().sendMessage(
      STATUS_JID,
      { delete: { remoteJid: STATUS_JID, fromMe: true, id: statusId } },
      { statusJidList: recipients.map(toBaileysJid), broadcast: true },
    );
  }
}

function contentOf(post: StatusPost, bytes: Uint8Array | null): AnyMessageContent {
  if (post.type === 'text') return { text: post.text };
  if (!bytes) throw new Error(`The ${post.type} status has no file to post`);
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { mimetype } = post.file;
  switch (post.type) {
    case 'image':
      return { image: file, mimetype, ...(post.caption ? { caption: post.caption } : {}) };
    case 'video':
      return { video: file, mimetype, ...(post.caption ? { caption: post.caption } : {}) };
    case 'voice':
      return { audio: file, mimetype, ptt: true };
  }
}
