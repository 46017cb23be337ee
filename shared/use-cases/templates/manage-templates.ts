/**
 * Message template CRUD of one session (openwa-facts §1.5), through the session-record use cases: a template is
 * resolved inside the session the path names, so another session's template id is "not found"; names are unique
 * per session (409 TEMPLATE_NAME_TAKEN, enforced by the store) and lists come newest first.
 */
import type { CreateTemplateBody, UpdateTemplateBody } from '#shared/domain/template.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import { sessionRecords } from '#shared/use-cases/session-records.js';

const templates = sessionRecords<CreateTemplateBody, UpdateTemplateBody>(
  (data) => data.templates,
  (id) => new NotFoundError(`Template '${id}' not found`),
);

/** The session's template of id `id` (404 otherwise); the caller has checked the session. */
export const loadTemplate = templates.load;

/**
 * Creates a template (201): 404 for an unknown session, 409 TEMPLATE_NAME_TAKEN for a name the session uses, 400
 * TEMPLATE_LIMIT when the session holds `maxPerSession` templates already (TEMPLATE_MAX_PER_SESSION).
 */
export const createTemplate = templates.create;

/** The session's templates, newest first. */
export const listTemplates = templates.list;

/** One template of the session (404 when the session has none of that id). */
export const getTemplate = templates.get;

/** Applies a partial update: 404 when the session has no such template, 409 when a new name is taken. */
export const updateTemplate = templates.update;

/** Deletes a template (204; 404 when the session has none of that id); its name is free again. */
export const deleteTemplate = templates.remove;
