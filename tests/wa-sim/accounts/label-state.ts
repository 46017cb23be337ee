/**
 * The phone's labels (WhatsApp Business): each label's name, colour and whether it was deleted, and the chats each
 * one tags. Both travel over app-state sync in the collection `regular` (API version 3), as Baileys'
 * `chatModificationToAppPatch` and WhatsApp's other clients write them: a label is the value at `["label_edit",
 * id]` (`labelEditAction {name, color, predefinedId, deleted}`), a tag the value at `["label_jid", labelId, chatJid]`
 * (`labelAssociationAction {labeled}`). A `SET` replaces what the index held, so a label is what its latest action
 * says, whole: a field the action leaves out is the field's default, as a device reading the value sees it. What the
 * phone shows is what its app state describes. The phone's own edits (`label-actions.ts`) and companions' uploads (`app-state.ts`) both land here through
 * `applyLabelAction`.
 */
import { proto } from '@whiskeysockets/baileys';
import type { MutationContent } from '#tests/wa-sim/crypto/app-state-crypto.js';
import type { Account, PhoneLabel } from './accounts.js';

/** Where WhatsApp keeps labels and their tags, and the actions' API version. */
export const LABEL_COLLECTION = 'regular';
const LABEL_API_VERSION = 3;

/** The `label_edit` mutation that writes `label` whole. */
export function labelEditContent(label: PhoneLabel, timestamp: number): MutationContent {
  return {
    operation: proto.SyncdMutation.SyncdOperation.SET,
    index: ['label_edit', label.id],
    value: {
      timestamp,
      labelEditAction: {
        name: label.name,
        color: label.color,
        deleted: label.deleted,
        ...(label.predefinedId === undefined ? {} : { predefinedId: label.predefinedId }),
      },
    },
    apiVersion: LABEL_API_VERSION,
  };
}

/** The `label_jid` mutation that puts label `labelId` on chat `jid` or takes it off. */
export function labelChatContent(
  labelId: string,
  jid: string,
  labeled: boolean,
  timestamp: number,
): MutationContent {
  return {
    operation: proto.SyncdMutation.SyncdOperation.SET,
    index: ['label_jid', labelId, jid],
    value: { timestamp, labelAssociationAction: { labeled } },
    apiVersion: LABEL_API_VERSION,
  };
}

/** The label `id` if the phone shows it (known and not deleted). */
export function liveLabel(account: Account, id: string): PhoneLabel | undefined {
  const label = account.labels.get(id);
  return label && !label.deleted ? label : undefined;
}

/**
 * Applies one app-state mutation to the phone's labels if it is a label action; answers whether it was. A label whose
 * index is removed is deleted, a tag whose index is removed taken off. Deleting a label leaves its tags as the app
 * state has them: a companion's deletion (Baileys writes only the `label_edit`) keeps them, the phone's own takes
 * them off in the same patch (`label-actions.ts`).
 */
export function applyLabelAction(
  account: Account,
  { operation, index, value }: Pick<MutationContent, 'operation' | 'index' | 'value'>,
): boolean {
  const [type, labelId, jid] = index;
  if (!labelId) return false;
  const removed = operation === proto.SyncdMutation.SyncdOperation.REMOVE;
  if (type === 'label_edit') {
    const edit = value.labelEditAction ?? {};
    const label: PhoneLabel = {
      id: labelId,
      name: edit.name ?? '',
      color: edit.color ?? 0,
      deleted: removed || edit.deleted === true,
      predefinedId: edit.predefinedId ?? undefined,
    };
    account.labels.set(labelId, label);
    return true;
  }
  if (type === 'label_jid' && jid) {
    const chats = account.labelChats.get(labelId) ?? new Set<string>();
    if (!removed && value.labelAssociationAction?.labeled === true) chats.add(jid);
    else chats.delete(jid);
    if (chats.size > 0) account.labelChats.set(labelId, chats);
    else account.labelChats.delete(labelId);
    return true;
  }
  return false;
}

/** A label as `GET /admin/accounts/{phone}/labels` shows it, with the chats it tags. */
export interface PhoneLabelView {
  readonly id: string;
  readonly name: string;
  readonly color: number;
  readonly deleted: boolean;
  readonly predefinedId?: number;
  readonly chats: readonly string[];
}

/** The JSON view of label `label` of `account`. */
export function labelView(account: Account, label: PhoneLabel): PhoneLabelView {
  return {
    id: label.id,
    name: label.name,
    color: label.color,
    deleted: label.deleted,
    ...(label.predefinedId === undefined ? {} : { predefinedId: label.predefinedId }),
    chats: [...(account.labelChats.get(label.id) ?? [])],
  };
}

/**
 * The phone's labels (deleted ones included) and, per chat jid, the label ids tagging it: tags of a label the phone
 * never saw an edit of show there too.
 */
export function labelsView(account: Account): {
  labels: PhoneLabelView[];
  chats: Record<string, string[]>;
} {
  const chats: Record<string, string[]> = {};
  for (const [labelId, jids] of account.labelChats) {
    for (const jid of jids) chats[jid] = [...(chats[jid] ?? []), labelId];
  }
  return { labels: [...account.labels.values()].map((label) => labelView(account, label)), chats };
}
