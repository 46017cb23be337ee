/**
 * What a refused input says, issue by issue. A union of shapes (a media send by `url` or by `data`, a send-template
 * by `templateId` or by `templateName`) is how the OpenAPI document can say "exactly one of", but zod reports an
 * input that fits none of the shapes as one "Invalid input" for the whole union. Here such an issue becomes the
 * issues of the shape the input came closest to, so the answer names the field that is wrong, as it did before
 * the rule was a union.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/**
 * The issues of `schema` for `value`, unions resolved to their closest shape (paths from the root), or null when it
 * fits. `reportInput` keeps each issue's input, which tells a missing field from a wrong one.
 */
export function validationIssues(schema: z.ZodType, value: unknown): Issue[] | null {
  const result = schema.safeParse(value, { reportInput: true });
  return result.success ? null : closestIssues(result.error.issues);
}

/** `issues` with every union issue replaced by the issues of its closest shape (see `distance`). */
export function closestIssues(issues: readonly Issue[], prefix: Path = []): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    // An exclusive union that more than one shape matched has no per-shape issues: its own message says it.
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ ...issue, path }];
    let closest = issue.errors[0] ?? [];
    for (const branch of issue.errors.slice(1)) {
      if (compare(distance(branch), distance(closest)) < 0) closest = branch;
    }
    return closestIssues(closest, path);
  });
}

/**
 * How far an input is from one shape, compared in order: whether it is not even of the shape's type (a string
 * where an object or a list was expected), then how many fields it lacks or has in excess, then how many issues in
 * all. A tie goes to the shape listed first.
 */
function distance(issues: readonly Issue[]): [number, number, number] {
  const notItsType = issues.some(
    (issue) => issue.path.length === 0 && (issue.code === 'invalid_type' || issue.code === 'invalid_value'),
  );
  const shape = issues.filter(
    (issue) =>
      issue.code === 'unrecognized_keys' || (issue.code === 'invalid_type' && issue.input === undefined),
  ).length;
  return [notItsType ? 1 : 0, shape, issues.length];
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}
