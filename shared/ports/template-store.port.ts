import { type Template, Template as TemplateSchema } from '#shared/domain/template.js';
import { ConflictError, ValidationError } from '#shared/errors/app-error.js';
import type { PerSessionCap } from './webhook-store.port.js';

/** Every field of a stored template, in schema order (adapters map rows and items field by field). */
export const TEMPLATE_FIELDS = TemplateSchema.keyof().options;

/** The fields of a template that an update may change. */
export const TEMPLATE_PATCH_FIELDS = [
  'name',
  'body',
  'header',
  'footer',
  'updatedAt',
] as const satisfies readonly (keyof Template)[];

export type TemplatePatch = Partial<Pick<Template, (typeof TEMPLATE_PATCH_FIELDS)[number]>>;

/** The 400 every adapter raises when a session already holds `max` templates. */
export function templateLimitReached(max: number): ValidationError {
  return new ValidationError(`A session may have at most ${max} templates`, {
    code: 'TEMPLATE_LIMIT',
    details: { maxPerSession: max },
  });
}

/** The 409 every adapter raises when another template of the session has the name. */
export function templateNameTaken(name: string): ConflictError {
  return new ConflictError('TEMPLATE_NAME_TAKEN', `Template name '${name}' already exists in this session`);
}

/**
 * Message templates of the data store, scoped to their session like automation rules: an id of another session is
 * "not found" everywhere. Names are unique per session (case-sensitive, as stored), whatever races: the store
 * enforces it, not its callers.
 */
export interface TemplateStore {
  /**
   * Inserts a template unless its session already holds `cap.maxPerSession` (0 = no cap; ValidationError
   * TEMPLATE_LIMIT, counted atomically with the insert). A name the session uses already raises ConflictError
   * TEMPLATE_NAME_TAKEN, a taken id ConflictError CONFLICT, an unknown session NotFoundError where the store knows
   * sessions (SQLite, DynamoDB).
   */
  create(template: Template, cap: PerSessionCap): Promise<void>;
  findById(sessionId: string, id: string): Promise<Template | null>;
  /** The session's template of exactly this name, or null. */
  findByName(sessionId: string, name: string): Promise<Template | null>;
  /** The session's templates, newest first (createdAt, then id, both descending). */
  listBySession(sessionId: string): Promise<Template[]>;
  /**
   * Applies the patch's listed fields; the template as stored afterwards, or null when it does not exist. A new name
   * another template of the session has raises ConflictError TEMPLATE_NAME_TAKEN and changes nothing.
   */
  update(sessionId: string, id: string, patch: TemplatePatch): Promise<Template | null>;
  /** False when it did not exist; its name is free again afterwards. */
  delete(sessionId: string, id: string): Promise<boolean>;
  /** Deletes every template of a session (session delete); answers how many. */
  deleteBySession(sessionId: string): Promise<number>;
}
