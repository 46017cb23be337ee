/**
 * Rendering a template: header, body and footer joined by a blank line without the empty ones, placeholders filled
 * literally, every missing variable named, and the text-message limit.
 */
import { describe, expect, it } from '@jest/globals';
import { TEXT_MAX } from '#shared/domain/outgoing-content.js';
import { SendTemplateBody } from '#shared/domain/template.js';
import { renderTemplate, templateVariableNames } from '#shared/domain/template-rendering.js';
import { ValidationError } from '#shared/errors/app-error.js';
import { validationIssues } from '#shared/errors/validation-issues.js';

const template = (body: string, header: string | null = null, footer: string | null = null) => ({
  header,
  body,
  footer,
});

/** The error `render` throws (fails when it throws none). */
function errorOf(render: () => unknown): ValidationError {
  try {
    render();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('renderTemplate', () => {
  it('joins header, body and footer with a blank line, filling every placeholder', () => {
    const text = renderTemplate(template('Hi {{name}}, order {{ order.id }} shipped.', '*{{shop}}*', 'Bye'), {
      name: 'Ann',
      'order.id': 'A-17',
      shop: 'Acme',
    });
    expect(text).toBe('*Acme*\n\nHi Ann, order A-17 shipped.\n\nBye');
  });

  it('leaves out a null or empty header and footer', () => {
    expect(renderTemplate(template('Body', null, 'Foot'), {})).toBe('Body\n\nFoot');
    expect(renderTemplate(template('Body', 'Head', ''), {})).toBe('Head\n\nBody');
    expect(renderTemplate(template('Body', '', null), {})).toBe('Body');
  });

  it('fills a placeholder used several times, and spaces inside the braces or tabs and newlines around it', () => {
    const text = renderTemplate(template('{{a}}-{{ a }}-{{\ta\n}}-{{a_b-c.d}}'), { a: 'x', 'a_b-c.d': 'y' });
    expect(text).toBe('x-x-x-y');
  });

  it('inserts values literally: no second expansion, no replacement patterns', () => {
    const text = renderTemplate(template('{{a}} {{b}}'), { a: '{{b}}', b: "$& $1 $$ $'" });
    expect(text).toBe("{{b}} $& $1 $$ $'");
  });

  it('leaves what is not a placeholder alone and ignores variables the template does not use', () => {
    const body = 'Price: {{ }} {x} {{two words}} {{bad!}} {{{a}}}';
    expect(renderTemplate(template(body), { a: 'A', unused: 'z' })).toBe(
      'Price: {{ }} {x} {{two words}} {{bad!}} {A}',
    );
  });

  it('allows an empty value', () => {
    expect(renderTemplate(template('Hi {{name}}!'), { name: '' })).toBe('Hi !');
  });

  it('refuses missing variables with TEMPLATE_VARIABLES_MISSING naming each once, in order of first use', () => {
    const error = errorOf(() =>
      renderTemplate(template('{{b}} {{a}} {{b}} {{given}}', '{{head}}', '{{a}} {{foot}}'), { given: 'g' }),
    );
    expect(error).toMatchObject({ status: 400, code: 'TEMPLATE_VARIABLES_MISSING' });
    expect(error.message).toBe('Template variables missing: head, b, a, foot');
    expect(error.details).toEqual({ missing: ['head', 'b', 'a', 'foot'] });
  });

  it('counts only own keys: an inherited property is no value', () => {
    const error = errorOf(() => renderTemplate(template('{{constructor}} {{toString}} {{x}}'), { x: '1' }));
    expect(error.details).toEqual({ missing: ['constructor', 'toString'] });
  });

  it('accepts a text of exactly TEXT_MAX characters and refuses one more, naming the length', () => {
    const exact = renderTemplate(template(`{{v}}`, 'h'), { v: 'x'.repeat(TEXT_MAX - 3) });
    expect(exact).toHaveLength(TEXT_MAX);
    const error = errorOf(() => renderTemplate(template('{{v}}', 'h'), { v: 'x'.repeat(TEXT_MAX - 2) }));
    expect(error).toMatchObject({
      code: 'TEMPLATE_RENDER_TOO_LONG',
      details: { length: TEXT_MAX + 1, max: TEXT_MAX },
    });
    expect(error.message).toBe(
      `Rendered template is ${TEXT_MAX + 1} characters, over the ${TEXT_MAX}-character limit`,
    );
  });

  it('refuses a text that comes out empty', () => {
    expect(errorOf(() => renderTemplate(template('{{v}}'), { v: '' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Rendered template is empty',
    });
  });
});

describe('templateVariableNames', () => {
  it('names each placeholder of header, body and footer once, in order of first use', () => {
    expect(templateVariableNames(template('{{b}} {{ a }}', '{{c}} {{b}}', '{{d}} {{a}}'))).toEqual([
      'c',
      'b',
      'a',
      'd',
    ]);
    expect(templateVariableNames(template('no placeholders'))).toEqual([]);
  });
});

describe('SendTemplateBody', () => {
  const chatId = '15557770001@c.us';
  const id = '10000000-0000-4000-8000-000000000000';

  it('takes exactly one of templateId and templateName, with variables defaulting to none', () => {
    expect(SendTemplateBody.parse({ chatId, templateId: id })).toEqual({
      chatId,
      templateId: id,
      variables: {},
    });
    expect(SendTemplateBody.parse({ chatId, templateName: ' Welcome ' })).toMatchObject({
      templateName: 'Welcome',
    });
    // As the API reports them: the issues of the shape (by id, by name) the body came closest to.
    const issues = (body: object) =>
      (validationIssues(SendTemplateBody, body) ?? []).map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues({ chatId })).toEqual([['templateId', 'give exactly one of templateId and templateName']]);
    expect(issues({ chatId, templateId: id, templateName: 'Welcome' })).toEqual([
      ['', 'give exactly one of templateId and templateName'],
    ]);
    expect(issues({ chatId, templateName: '' })).toEqual([
      ['templateName', 'must hold a character besides white space'],
    ]);
  });

  it('refuses variable names a placeholder cannot have and values that are not strings', () => {
    expect(SendTemplateBody.safeParse({ chatId, templateId: id, variables: { 'a b': 'x' } }).success).toBe(
      false,
    );
    expect(SendTemplateBody.safeParse({ chatId, templateId: id, variables: { a: 1 } }).success).toBe(false);
    expect(SendTemplateBody.safeParse({ chatId, templateId: id, vars: { a: 'x' } }).success).toBe(false);
  });
});
