/**
 * Message templates: the stored record, which is also the response shape, and the request bodies (spec "Other
 * resources: Template", openwa-facts §2 "Templates", §3 "Template"). A template is text with `{{name}}`
 * placeholders that send-template fills in (template-rendering.ts).
 */
import { z } from 'zod';
import { IsoTimestamp, resourceName, Uuid, whenAlso, whenMissing } from './common.js';
import { ChatId } from './message.js';
import { TEXT_MAX, TextContent } from './outgoing-content.js';
import { VARIABLE_NAME } from './template-rendering.js';

export const MAX_TEMPLATE_BODY = 4096;
export const MAX_TEMPLATE_HEADER = 1024;
export const MAX_TEMPLATE_FOOTER = 1024;

/** The stored template, returned as is. A null (or empty) header or footer is left out of the rendered text. */
export const Template = z
  .object({
    id: Uuid,
    sessionId: Uuid,
    name: z.string().max(100),
    body: z.string(),
    header: z.string().nullable(),
    footer: z.string().nullable(),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .meta({ id: 'Template' });
export type Template = z.infer<typeof Template>;

/** A template's name: a resource name (no control or bidi characters) of 1–100 characters, unique per session. */
export const TemplateName = resourceName(1, 100);
const TemplateBodyText = z.string().min(1).max(MAX_TEMPLATE_BODY);
const TemplateHeader = z.string().max(MAX_TEMPLATE_HEADER);
const TemplateFooter = z.string().max(MAX_TEMPLATE_FOOTER);

export const CreateTemplateBody = z.strictObject({
  name: TemplateName,
  body: TemplateBodyText,
  header: TemplateHeader.nullable().default(null),
  footer: TemplateFooter.nullable().default(null),
});
export type CreateTemplateBody = z.infer<typeof CreateTemplateBody>;

/** Partial update; null clears the header or the footer and is refused for the name and the body. */
export const UpdateTemplateBody = z.strictObject({
  name: TemplateName.optional(),
  body: TemplateBodyText.optional(),
  header: TemplateHeader.nullable().optional(),
  footer: TemplateFooter.nullable().optional(),
});
export type UpdateTemplateBody = z.infer<typeof UpdateTemplateBody>;

/** At most this many values for placeholders. */
export const MAX_TEMPLATE_VARIABLES = 256;

/** Values for a template's placeholders: at most 256, names as placeholders spell them, values up to TEXT_MAX. */
export const TemplateVariablesInput = z
  .record(
    z.string().max(100).regex(VARIABLE_NAME, 'must be a placeholder name (letters, digits, _ . -)'),
    z.string().max(TEXT_MAX),
  )
  .refine(
    (variables) => Object.keys(variables).length <= MAX_TEMPLATE_VARIABLES,
    `at most ${MAX_TEMPLATE_VARIABLES} variables`,
  )
  // zod cannot state a record's size in JSON Schema; the refinement above checks what this says.
  .meta({ maxProperties: MAX_TEMPLATE_VARIABLES });

const EXACTLY_ONE = 'give exactly one of templateId and templateName';
const SendTemplateFields = {
  chatId: ChatId,
  variables: TemplateVariablesInput.default({}),
  mentions: TextContent.shape.mentions,
};

/**
 * POST …/messages/send-template: the chat, exactly one of `templateId` and `templateName` (two closed shapes, the
 * OpenAPI document's `oneOf`), the placeholder values (`variables`; openwa calls them `vars`) and mentions as
 * send-text takes them.
 */
export const SendTemplateBody = z.xor([
  z.strictObject(
    {
      ...SendTemplateFields,
      templateId: z.uuid({ error: whenMissing(EXACTLY_ONE) }),
    },
    { error: whenAlso('templateName', EXACTLY_ONE) },
  ),
  z.strictObject(
    { ...SendTemplateFields, templateName: TemplateName },
    { error: whenAlso('templateId', EXACTLY_ONE) },
  ),
]);
export type SendTemplateBody = z.infer<typeof SendTemplateBody>;
