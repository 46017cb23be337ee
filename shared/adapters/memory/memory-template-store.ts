/**
 * In-memory TemplateStore: the unit-test fake, behaving like the SQLite adapter (copies, newest first, cap, unique
 * names per session, errors).
 */
import type { Template } from '#shared/domain/template.js';
import {
  TEMPLATE_PATCH_FIELDS,
  type TemplatePatch,
  type TemplateStore,
  templateLimitReached,
  templateNameTaken,
} from '#shared/ports/template-store.port.js';
import type { PerSessionCap } from '#shared/ports/webhook-store.port.js';
import { MemoryScopedRecords } from './memory-scoped-records.js';
import { newestFirst } from './memory-support.js';

function copyTemplate(template: Template): Template {
  return {
    id: template.id,
    sessionId: template.sessionId,
    name: template.name,
    body: template.body,
    header: template.header,
    footer: template.footer,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
  };
}

/** Templates in a Map; every method is atomic because nothing in it awaits. */
export class MemoryTemplateStore implements TemplateStore {
  private readonly records = new MemoryScopedRecords(copyTemplate, 'template');

  async create(template: Template, cap: PerSessionCap): Promise<void> {
    this.records.create(template, cap, templateLimitReached, (record) => {
      if (this.holder(record.sessionId, record.name) !== null) throw templateNameTaken(record.name);
    });
  }

  async findById(sessionId: string, id: string): Promise<Template | null> {
    return this.records.find(sessionId, id);
  }

  async findByName(sessionId: string, name: string): Promise<Template | null> {
    const id = this.holder(sessionId, name);
    return id === null ? null : this.records.find(sessionId, id);
  }

  async listBySession(sessionId: string): Promise<Template[]> {
    return this.records.ofSession(sessionId, newestFirst);
  }

  async update(sessionId: string, id: string, patch: TemplatePatch): Promise<Template | null> {
    const name = patch.name;
    if (name !== undefined && this.records.find(sessionId, id) !== null) {
      const holder = this.holder(sessionId, name);
      if (holder !== null && holder !== id) throw templateNameTaken(name);
    }
    return this.records.update(sessionId, id, patch, TEMPLATE_PATCH_FIELDS);
  }

  async delete(sessionId: string, id: string): Promise<boolean> {
    return this.records.delete(sessionId, id);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return this.records.deleteBySession(sessionId);
  }

  /** The id of the session's template called `name`, or null. */
  private holder(sessionId: string, name: string): string | null {
    const [found] = this.records.all(
      (template) => template.sessionId === sessionId && template.name === name,
      newestFirst,
    );
    return found?.id ?? null;
  }
}
