/**
 * Rendering a template into the text send-template sends (openwa-facts §2 "SendTemplateMessageDto"): the segments
 * header, body and footer, without the null or empty ones, each with its `{{ name }}` placeholders replaced, joined
 * by a blank line. A placeholder the request gives no value for refuses the send rather than going out as literal
 * braces, and the result must fit a text message.
 */
import { ValidationError } from '#shared/errors/app-error.js';
import { TEXT_MAX } from './outgoing-content.js';

/** What a placeholder may be called: letters, digits, `_`, `.` and `-`. */
export const VARIABLE_NAME = /^[a-zA-Z0-9_.-]+$/;

/** `{{name}}`, with spaces allowed inside the braces (`{{ name }}`). */
const PLACEHOLDER = /\{\{\s*([a-zA-Z0-9_.-]+)\s*\}\}/g;

const SEPARATOR = '\n\n';

/** The parts of a template that rendering reads. */
export interface RenderableTemplate {
  header: string | null;
  body: string;
  footer: string | null;
}

/** The values a request gives its placeholders, by name. */
export type TemplateVariables = Readonly<Record<string, string>>;

function segmentsOf(template: RenderableTemplate): string[] {
  return [template.header, template.body, template.footer].filter(
    (segment): segment is string => segment !== null && segment !== '',
  );
}

/** The placeholder names the template uses, each once, in order of first use. */
export function templateVariableNames(template: RenderableTemplate): string[] {
  const names = new Set<string>();
  for (const segment of segmentsOf(template)) {
    for (const match of segment.matchAll(PLACEHOLDER)) names.add(match[1] as string);
  }
  return [...names];
}

/**
 * The text of `template` with `variables` filled in. Values are inserted as they are: a value holding `{{x}}` is
 * not expanded again. Only a variable's own key counts (a placeholder called `constructor` needs a value too).
 * Throws ValidationError: TEMPLATE_VARIABLES_MISSING naming every placeholder without a value,
 * TEMPLATE_RENDER_TOO_LONG when the text exceeds TEXT_MAX, VALIDATION_FAILED when it comes out empty.
 */
export function renderTemplate(template: RenderableTemplate, variables: TemplateVariables): string {
  const missing = templateVariableNames(template).filter((name) => !Object.hasOwn(variables, name));
  if (missing.length > 0) {
    throw new ValidationError(`Template variables missing: ${missing.join(', ')}`, {
      code: 'TEMPLATE_VARIABLES_MISSING',
      details: { missing },
    });
  }
  const text = segmentsOf(template)
    .map((segment) => segment.replace(PLACEHOLDER, (_token, name: string) => variables[name] as string))
    .join(SEPARATOR);
  if (text.length > TEXT_MAX) {
    throw new ValidationError(
      `Rendered template is ${text.length} characters, over the ${TEXT_MAX}-character limit`,
      { code: 'TEMPLATE_RENDER_TOO_LONG', details: { length: text.length, max: TEXT_MAX } },
    );
  }
  if (text.length === 0) throw new ValidationError('Rendered template is empty');
  return text;
}
