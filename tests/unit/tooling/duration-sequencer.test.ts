/**
 * The order jest runs test files in (tests/helpers/duration-sequencer.mjs): on a clean clone, where jest has cached
 * no durations, the committed ones put the minute-long files first instead of ordering by file size; a duration
 * this machine cached wins over the committed one, a file that failed last time still goes first, and a file known
 * to neither is ordered by size after every timed one.
 */
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { Test, TestContext } from '@jest/test-result';
// @ts-expect-error: plain JS module without declarations, loaded by jest's config
import DurationSequencer, { committedDuration } from '#tests/helpers/duration-sequencer.mjs';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SIZES: Record<string, number> = {
  'tests/aws/multi-node.test.ts': 12_000,
  'tests/aws/webhook-relay-crash.test.ts': 3_000,
  'tests/api/smoke.test.ts': 900,
  'tests/api/tiny-new.test.ts': 400,
  'tests/api/big-new.test.ts': 20_000,
};

function context(project: string): TestContext {
  return {
    config: { cache: false, displayName: { name: project }, id: project, cacheDirectory: '/nonexistent' },
    hasteFS: { getSize: (file: string) => SIZES[path.relative(ROOT, file)] ?? 0 },
  } as unknown as TestContext;
}

const aws = context('aws');
const api = context('api');
const test = (ctx: TestContext, file: string) => ({ context: ctx, path: path.join(ROOT, file) }) as Test;
const order = (sorted: Test[]) =>
  sorted.map((t) => `${t.context.config.displayName?.name} ${path.relative(ROOT, t.path)}`);

describe('the duration sequencer', () => {
  it('knows the committed durations of the long files, by project and path', () => {
    expect(committedDuration('aws', path.join(ROOT, 'tests/aws/multi-node.test.ts'))).toBeGreaterThan(30_000);
    expect(committedDuration('api', path.join(ROOT, 'tests/aws/multi-node.test.ts'))).toBeUndefined();
  });

  it('on a clean clone: committed durations first, longest first; then the rest by size', () => {
    const sequencer = new DurationSequencer({ contexts: [aws, api], globalConfig: {} });
    const sorted = sequencer.sort([
      test(api, 'tests/api/tiny-new.test.ts'),
      test(api, 'tests/api/smoke.test.ts'),
      test(aws, 'tests/aws/webhook-relay-crash.test.ts'),
      test(api, 'tests/api/big-new.test.ts'),
      test(aws, 'tests/aws/multi-node.test.ts'),
    ]);
    // The two committed files, longest first by the committed figures (a refresh of the file may swap them).
    const committed = ['tests/aws/multi-node.test.ts', 'tests/aws/webhook-relay-crash.test.ts'].sort(
      (a, b) => committedDuration('aws', path.join(ROOT, b)) - committedDuration('aws', path.join(ROOT, a)),
    );
    expect(order(sorted)).toEqual([
      ...committed.map((file) => `aws ${file}`),
      'api tests/api/big-new.test.ts',
      'api tests/api/smoke.test.ts',
      'api tests/api/tiny-new.test.ts',
    ]);
    // Jest estimates the run from these.
    expect(sorted[0]?.duration).toBe(committedDuration('aws', path.join(ROOT, committed[0] ?? '')));
  });

  it('a duration this machine cached wins over the committed one, and a file that failed last goes first', () => {
    const sequencer = new DurationSequencer({ contexts: [aws, api], globalConfig: {} });
    sequencer._cache.set(aws, { [path.join(ROOT, 'tests/aws/multi-node.test.ts')]: [1, 1_000] });
    sequencer._cache.set(api, { [path.join(ROOT, 'tests/api/tiny-new.test.ts')]: [0, 10] });
    const sorted = sequencer.sort([
      test(aws, 'tests/aws/multi-node.test.ts'),
      test(aws, 'tests/aws/webhook-relay-crash.test.ts'),
      test(api, 'tests/api/tiny-new.test.ts'),
    ]);
    expect(order(sorted)).toEqual([
      'api tests/api/tiny-new.test.ts',
      'aws tests/aws/webhook-relay-crash.test.ts',
      'aws tests/aws/multi-node.test.ts',
    ]);
  });
});
