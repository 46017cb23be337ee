/** What a Baileys socket learns of labels: `labels.edit` and `labels.association`, in the order they came. */
import type { BaileysEventMap, WASocket } from '@whiskeysockets/baileys';
import { eventually } from './wait.js';

/** One `labels.edit` event: the label as the patch described it (Baileys does not export its `Label`). */
export type LabelSeen = BaileysEventMap['labels.edit'];

/** One `labels.association` event. */
export type LabelAssociationSeen = BaileysEventMap['labels.association'];

/** The label events one socket heard; attach it before the socket connects (`ClientOptions.onSocket`). */
export class LabelBook {
  readonly edits: LabelSeen[] = [];
  readonly associations: LabelAssociationSeen[] = [];

  readonly attach = (sock: WASocket): void => {
    sock.ev.on('labels.edit', (label) => this.edits.push(label));
    sock.ev.on('labels.association', (event) => this.associations.push(event));
  };

  /** The latest `labels.edit` of label `id`, once `pick` holds for it. */
  edit(id: string, pick: (label: LabelSeen) => boolean, timeoutMs = 10_000): Promise<LabelSeen> {
    const found = () => {
      const latest = this.edits.findLast((label) => label.id === id);
      return latest && pick(latest) ? latest : undefined;
    };
    return eventually(found, timeoutMs, `labels.edit of ${id}`);
  }

  /** Resolves once the latest `labels.association` of label `labelId` on chat `chatId` was of `type`. */
  async association(
    type: LabelAssociationSeen['type'],
    labelId: string,
    chatId: string,
    timeoutMs = 10_000,
  ): Promise<void> {
    const found = () =>
      this.associations.findLast(
        ({ association }) =>
          association.type === 'label_jid' &&
          association.labelId === labelId &&
          association.chatId === chatId,
      )?.type === type;
    await eventually(found, timeoutMs, `labels.association ${type} of ${labelId} on ${chatId}`);
  }
}
