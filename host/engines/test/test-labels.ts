/**
 * Labels on the test network: each account's labels (name, colour) and which chats they tag, and the test engine's
 * labels port over them (the test engine does all three label capabilities, so the API tests reach every route).
 */
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import { hexColorOf, type Label } from '#shared/domain/label.js';
import { NotFoundError } from '#shared/errors/app-error.js';

export interface StoredLabel {
  name: string;
  color: number;
  chats: Set<string>;
}

export class TestLabels {
  private readonly accounts = new Map<string, Map<string, StoredLabel>>();

  /** The labels of a session's account, by id. */
  of(sessionId: string): Map<string, StoredLabel> {
    let labels = this.accounts.get(sessionId);
    if (!labels) {
      labels = new Map();
      this.accounts.set(sessionId, labels);
    }
    return labels;
  }
}

const viewOf = (id: string, label: StoredLabel): Label => ({
  id,
  name: label.name,
  hexColor: hexColorOf(label.color),
});

export function testLabels(
  labels: TestLabels,
  sessionId: string,
  open: () => boolean,
): PortOperations<'labels'> {
  const mine = () => {
    if (!open()) throw new Error('connection closed');
    return labels.of(sessionId);
  };
  const find = (labelId: string) => {
    const label = mine().get(labelId);
    if (!label) throw new NotFoundError(`Label ${labelId} not found`);
    return label;
  };
  const done = { success: true as const };
  return {
    list: async () => [...mine()].map(([id, label]) => viewOf(id, label)),
    get: async ({ labelId }) => viewOf(labelId, find(labelId)),
    chatsOf: async ({ labelId }) => [...find(labelId).chats].map((id) => ({ id })),
    labelsOf: async ({ chatId }) =>
      [...mine()].filter(([, label]) => label.chats.has(chatId)).map(([id, label]) => viewOf(id, label)),
    upsert: async ({ labelId, name, color }) => {
      const existing = mine().get(labelId);
      mine().set(labelId, {
        name: name ?? existing?.name ?? `Label ${labelId}`,
        color: color ?? existing?.color ?? 0,
        chats: existing?.chats ?? new Set(),
      });
      return done;
    },
    delete: async ({ labelId }) => {
      mine().delete(labelId);
      return done;
    },
    tag: async ({ chatId, labelId }) => {
      find(labelId).chats.add(chatId);
      return done;
    },
    untag: async ({ chatId, labelId }) => {
      find(labelId).chats.delete(chatId);
      return done;
    },
  };
}
