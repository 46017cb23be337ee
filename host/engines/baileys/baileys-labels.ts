/**
 * The Baileys engine's labels port (rows of shared/domain/engine-operations/labels.ts): a label's edit and a chat's
 * tag are app-state patches every device of the account sees (`label_edit`, `label_jid`). Baileys keeps no labels
 * of its own, so reading them is not this engine's (labels_read: 501 before any engine is asked, by the capability
 * table); the read methods exist for the port's shape and refuse the same way if reached directly.
 */
import type { WASocket } from '@whiskeysockets/baileys';
import { capabilityRow } from '#shared/domain/engine-capabilities.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import { EngineUnsupportedError } from '#shared/errors/app-error.js';
import { toBaileysJid } from './baileys-jids.js';

const done = { success: true as const };

const unsupported = async (): Promise<never> => {
  throw new EngineUnsupportedError('baileys', 'labels_read', capabilityRow('labels_read').summary);
};

export class BaileysLabels implements PortOperations<'labels'> {
  constructor(private readonly socket: () => WASocket | null) {}

  private open(): WASocket {
    const socket = this.socket();
    if (!socket) throw new Error('no open connection');
    return socket;
  }

  list = unsupported;
  get = unsupported;
  chatsOf = unsupported;
  labelsOf = unsupported;

  async upsert({
    labelId,
    name,
    color,
  }: {
    labelId: string;
    name?: string | undefined;
    color?: number | undefined;
  }) {
    await this.open().addLabel('', {
      id: labelId,
      ...(name === undefined ? {} : { name }),
      ...(color === undefined ? {} : { color }),
      deleted: false,
    });
    return done;
  }

  async delete({ labelId }: { labelId: string }) {
    await this.open().addLabel('', { id: labelId, deleted: true });
    return done;
  }

  async tag({ chatId, labelId }: { chatId: string; labelId: string }) {
    await this.open().addChatLabel(toBaileysJid(chatId), labelId);
    return done;
  }

  async untag({ chatId, labelId }: { chatId: string; labelId: string }) {
    await this.open().removeChatLabel(toBaileysJid(chatId), labelId);
    return done;
  }
}
