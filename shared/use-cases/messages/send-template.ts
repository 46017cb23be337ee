/**
 * Sends a stored template (POST …/messages/send-template): the session's template named by id or by name is
 * rendered with the request's variables (template-rendering.ts: every placeholder needs a value, the text must fit
 * a text message) and sent exactly as send-text sends, its row marked with `metadata.template` so history shows
 * which template it came from.
 */
import type { Caller } from '#shared/domain/caller.js';
import type { SendTemplateBody, Template } from '#shared/domain/template.js';
import { renderTemplate } from '#shared/domain/template-rendering.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { loadTemplate } from '#shared/use-cases/templates/manage-templates.js';
import { type SendDeps, type SentMessage, sendOrReplay } from './send-message.js';

async function resolveTemplate(
  data: DataStore,
  sessionId: string,
  body: SendTemplateBody,
): Promise<Template> {
  if ('templateId' in body) return loadTemplate(data, sessionId, body.templateId);
  const name = body.templateName;
  const template = await data.templates.findByName(sessionId, name);
  if (!template) throw new NotFoundError(`Template named '${name}' not found`);
  return template;
}

/**
 * 404 for an unknown session or template, 400 for missing variables or an over-long text; then as sendOrReplay (an
 * idempotency key replays the first request's message).
 */
export async function sendTemplate(
  deps: SendDeps,
  caller: Caller,
  sessionId: string,
  body: SendTemplateBody,
  waitMs: number,
  idempotencyKey?: string,
): Promise<SentMessage> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const template = await resolveTemplate(deps.data, sessionId, body);
  const text = renderTemplate(template, body.variables);
  return sendOrReplay(
    deps,
    caller,
    sessionId,
    {
      chatId: body.chatId,
      content: { type: 'text', text, ...(body.mentions ? { mentions: body.mentions } : {}) },
      metadata: { template: { id: template.id, name: template.name } },
      idempotencyKey,
    },
    waitMs,
  );
}
