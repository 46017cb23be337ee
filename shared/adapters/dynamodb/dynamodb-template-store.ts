/**
 * Templates in DynamoDB: one partition per session (DynamoDbScopedItems: capped create, consistent reads). A name
 * lock item in the same partition (sk `NAME#<name>`, `templateId`) keeps names unique per session, as the session
 * name lock does for sessions: it is written with the template, moved by a rename and removed with it, each time in
 * the same transaction, so two racing creates or renames cannot both take a name.
 */
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { patchFields } from '#shared/adapters/patch-support.js';
import type { Template } from '#shared/domain/template.js';
import { ConflictError } from '#shared/errors/app-error.js';
import {
  TEMPLATE_FIELDS,
  TEMPLATE_PATCH_FIELDS,
  type TemplatePatch,
  type TemplateStore,
  templateLimitReached,
  templateNameTaken,
} from '#shared/ports/template-store.port.js';
import type { PerSessionCap } from '#shared/ports/webhook-store.port.js';
import { DynamoDbScopedItems } from './dynamodb-scoped-items.js';
import {
  cancellationCodes,
  failedAt,
  getItem,
  guard,
  type Item,
  putNew,
  setExpression,
} from './dynamodb-support.js';

const STORE = 'Data store';
const FAMILY = 'TEMPLATES';
/** Rounds of read-then-write when a rename or delete meets a concurrent change of the same template. */
const MAX_ATTEMPTS = 5;

const nameKey = (sessionId: string, name: string) => ({ pk: `${FAMILY}#${sessionId}`, sk: `NAME#${name}` });

function toTemplate(item: Item): Template {
  const template: Record<string, unknown> = {};
  for (const field of TEMPLATE_FIELDS) template[field] = item[field] ?? null;
  return template as Template;
}

/** Newest first: createdAt, then id, both descending. */
function newestFirst(a: Template, b: Template): number {
  return b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);
}

const changedConcurrently = () =>
  new ConflictError('CONFLICT', 'The template changed concurrently; retry', { retryable: true });

/** TemplateStore on the data table. */
export class DynamoDbTemplateStore implements TemplateStore {
  private readonly items: DynamoDbScopedItems<Template>;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    this.items = new DynamoDbScopedItems(doc, table, {
      family: FAMILY,
      kind: 'TEMPLATE',
      what: 'template',
      fromItem: toTemplate,
      limitReached: templateLimitReached,
    });
  }

  create(template: Template, cap: PerSessionCap): Promise<void> {
    const lock = { ...nameKey(template.sessionId, template.name), templateId: template.id };
    return guard(STORE, () =>
      this.items.create(template, cap, [
        { write: putNew(this.table, lock), conflict: () => templateNameTaken(template.name) },
      ]),
    );
  }

  findById(sessionId: string, id: string): Promise<Template | null> {
    return guard(STORE, () => this.items.find(sessionId, id));
  }

  findByName(sessionId: string, name: string): Promise<Template | null> {
    return guard(STORE, async () => {
      const lock = await getItem(this.doc, this.table, nameKey(sessionId, name));
      return typeof lock?.templateId === 'string' ? this.items.find(sessionId, lock.templateId) : null;
    });
  }

  listBySession(sessionId: string): Promise<Template[]> {
    return guard(STORE, async () => (await this.items.listBySession(sessionId)).sort(newestFirst));
  }

  update(sessionId: string, id: string, patch: TemplatePatch): Promise<Template | null> {
    return guard(STORE, async () => {
      const { name, ...rest } = patchFields(patch, TEMPLATE_PATCH_FIELDS);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const current = await this.items.find(sessionId, id);
        if (!current) return null;
        if (name === undefined || name === current.name) return this.items.update(sessionId, id, rest);
        if (await this.rename(current, name, rest)) return this.items.find(sessionId, id);
      }
      throw changedConcurrently();
    });
  }

  delete(sessionId: string, id: string): Promise<boolean> {
    return guard(STORE, async () => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const current = await this.items.find(sessionId, id);
        if (!current) return false;
        const unlock = { Delete: { TableName: this.table, Key: nameKey(sessionId, current.name) } };
        // Only while the name read is still the template's, so a racing rename never leaves a stray lock.
        const options = { unchanged: { name: current.name }, companions: [{ write: unlock }] };
        if (await this.items.delete(sessionId, id, options)) return true;
      }
      throw changedConcurrently();
    });
  }

  deleteBySession(sessionId: string): Promise<number> {
    return guard(STORE, () => this.items.deleteBySession(sessionId));
  }

  /**
   * Renames `current` and applies `rest` in one transaction that moves the name lock; false when the template
   * changed since it was read (the caller reads it again), TEMPLATE_NAME_TAKEN when the name is another's.
   */
  private async rename(current: Template, name: string, rest: Record<string, unknown>): Promise<boolean> {
    const set = setExpression({ ...rest, name });
    try {
      await this.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.table,
                Key: this.items.key(current.sessionId, current.id),
                UpdateExpression: set.UpdateExpression,
                ConditionExpression: '#current = :current',
                ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#current': 'name' },
                ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':current': current.name },
              },
            },
            putNew(this.table, { ...nameKey(current.sessionId, name), templateId: current.id }),
            { Delete: { TableName: this.table, Key: nameKey(current.sessionId, current.name) } },
          ],
        }),
      );
      return true;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (failedAt(codes, 0)) return false;
      if (failedAt(codes, 1)) throw templateNameTaken(name);
      // Cancelled only because another transaction held one of the items: judged again after a fresh read.
      if (codes?.includes('TransactionConflict')) return false;
      throw error;
    }
  }
}
