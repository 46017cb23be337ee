/**
 * Jest's order of test files, longest first, on a clean clone too. Jest's own sequencer orders by the durations it
 * cached on this machine, and without a cache (CI's clean clone) by file size, which put the multi-node and crash
 * files (a minute each, short files) at the end of CI's run, where one worker ran them alone. Here a file without a
 * cached duration takes the one committed in test-durations.json (by project and path, seconds, as a full run
 * printed them; refresh it when the suites change shape), and only a file in neither is ordered by size. Files that
 * failed last time still go first.
 */
import fs from 'node:fs';
import path from 'node:path';
import TestSequencer from '@jest/test-sequencer';

const Sequencer = TestSequencer.default ?? TestSequencer;
const ROOT = path.resolve(import.meta.dirname, '../..');
const COMMITTED = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'test-durations.json'), 'utf8'));

/** The committed duration of a test file in its project, in ms, or undefined. */
export function committedDuration(project, file) {
  const seconds = COMMITTED[`${project} ${path.relative(ROOT, file)}`];
  return seconds === undefined ? undefined : seconds * 1000;
}

export default class DurationSequencer extends Sequencer {
  sort(tests) {
    const keyed = tests.map((test) => {
      const cached = this._getCache(test)[test.path];
      const project = test.context.config.displayName?.name ?? '';
      const duration = cached?.[1] ?? committedDuration(project, test.path);
      // Jest's reporter shows its estimate from these.
      test.duration = duration;
      return {
        test,
        failed: cached?.[0] === 0,
        duration: duration ?? -1,
        size: test.context.hasteFS.getSize(test.path) ?? 0,
      };
    });
    keyed.sort((a, b) => Number(b.failed) - Number(a.failed) || b.duration - a.duration || b.size - a.size);
    return keyed.map(({ test }) => test);
  }
}
