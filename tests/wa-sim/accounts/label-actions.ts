/**
 * The phone edits a label (`POST /admin/accounts/{phone}/labels/{labelId}`): creates it, renames or recolours it, or
 * deletes it. The phone knows its labels, so it writes each one whole, as WhatsApp's clients do (`label_edit` in
 * `regular`, `label-state.ts`): what the edit leaves out keeps its value; a deleted label is taken off its chats too.
 * The patch is announced to every companion with `server_sync`; Baileys fetches it and emits `labels.edit` (and
 * `labels.association` for each tag taken off).
 */
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import type { Account, PhoneLabel } from './accounts.js';
import { phoneMakes, type WrittenPatch } from './app-state.js';
import { LABEL_COLLECTION, labelChatContent, labelEditContent } from './label-state.js';

/** What the phone changes in a label; a label it does not have yet needs a name. */
export interface LabelEdit {
  readonly name?: string;
  /** WhatsApp's colour id, 0–19. */
  readonly color?: number;
  /** True deletes the label (it tags no chat any more), false brings a deleted one back. */
  readonly deleted?: boolean;
}

/** What an edit did: the label after it, the patch written, how many companions were told. */
export interface LabelEditResult {
  readonly label: PhoneLabel;
  readonly written: readonly WrittenPatch[];
  readonly notified: number;
}

/**
 * The label `labelId` of `account` after `edit`, or undefined when the phone has no such label and the edit names
 * none (the phone asks a name of a new label).
 */
export function editedLabel(account: Account, labelId: string, edit: LabelEdit): PhoneLabel | undefined {
  const existing = account.labels.get(labelId);
  const name = edit.name ?? existing?.name;
  if (name === undefined) return undefined;
  return {
    id: labelId,
    name,
    color: edit.color ?? existing?.color ?? 0,
    deleted: edit.deleted ?? existing?.deleted ?? false,
    predefinedId: existing?.predefinedId,
  };
}

/**
 * The phone writes `label` to its app state, applies it and tells its companions. Deleting a label takes it off every
 * chat it tagged in the same patch, so no device is left with tags of a label that is gone.
 */
export function phoneEditsLabel(sim: Simulator, account: Account, label: PhoneLabel): LabelEditResult {
  const timestamp = Date.now();
  const untagged = label.deleted ? [...(account.labelChats.get(label.id) ?? [])] : [];
  const contents = [
    labelEditContent(label, timestamp),
    ...untagged.map((jid) => labelChatContent(label.id, jid, false, timestamp)),
  ];
  const result = phoneMakes(
    sim,
    account,
    contents.map((content) => ({ collection: LABEL_COLLECTION, content })),
  );
  return { label: account.labels.get(label.id) ?? label, ...result };
}
