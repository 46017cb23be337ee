/**
 * The Baileys engine's labels port (rows of shared/domain/engine-operations/labels.ts): a label's edit and a chat's
 * tag are app-state patches every device of the account sees (`label_edit`, `label_jid`). Baileys keeps no labels
 * of its own, so reading them is not this engine's (labels_read: 501 before any engine is asked, by the capability
 * table); the read methods exist for the port's shape and refuse the same way if reached directly. For the same
 * reason an upsert needs both the name and the colour: an app-state `SET` replaces the label whole on every device,
 * as WhatsApp's own clients write it, so a name or colour left out would be erased, not kept.
 */
import type { WASocket } from '@whiskeysockets/baileys';
import { capabilityRow } from '#shared/domain/engine-capabilities.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import { EngineUnsupportedError, ValidationError } from '#shared/errors/app-error.js';
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
    const missing = [name === undefined ? 'name' : [], color === undefined ? 'color' : []].flat();
    if (missing.length > 0) {
      throw new ValidationError(
        'The baileys engine keeps no labels, so it writes a label whole: give both its name and its color',
        {
          details: missing.map((field) => ({
            path: `body.${field}`,
            message: 'required on the baileys engine',
          })),
        },
      );
    }
    await this.open().addLabel('', { id: labelId, name, color, deleted: false });
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
