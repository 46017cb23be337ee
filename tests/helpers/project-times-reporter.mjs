/**
 * A jest reporter that ends every run with each project's share of it: its files, the time they took (summed, and
 * from the first file's start to the last file's end, which differ when workers run side by side), so a run of
 * `.ci/run` shows where its time goes. Plain JS: jest loads reporters without the project's transform.
 */
export default class ProjectTimesReporter {
  #projects = new Map();
  #started = Date.now();

  onTestResult(test, result) {
    const name = test.context.config.displayName?.name ?? 'default';
    const project = this.#projects.get(name) ?? { files: 0, summed: 0, first: Infinity, last: 0 };
    const { start, end } = result.perfStats;
    project.files += 1;
    project.summed += end - start;
    project.first = Math.min(project.first, start);
    project.last = Math.max(project.last, end);
    this.#projects.set(name, project);
  }

  onRunComplete() {
    const rows = [...this.#projects].sort((a, b) => b[1].summed - a[1].summed);
    const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`.padStart(7);
    const lines = rows.map(
      ([name, p]) =>
        `  ${name.padEnd(12)} ${String(p.files).padStart(4)} files ${seconds(p.summed)} of test files, ${seconds(p.last - p.first)} from first to last`,
    );
    const total = [...this.#projects.values()].reduce((sum, p) => sum + p.summed, 0);
    process.stderr.write(
      `\nTime by jest project (${seconds(total).trim()} of test files in ${seconds(Date.now() - this.#started).trim()}):\n${lines.join('\n')}\n`,
    );
  }
}
