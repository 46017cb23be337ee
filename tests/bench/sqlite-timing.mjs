// Wall time of every SQLite statement this process runs, by SQL text, for the send benchmark's phases
// (BENCH_SQL_TIMING_DIR=<dir>: `<dir>/<phase>.txt` per timed phase). The driver is the one the gateway's bundle
// imports (node_modules' better-sqlite3, one module instance), so wrapping its statements' `run`, `get` and `all`
// times the gateway's own. BEGIN and COMMIT are kept apart per database file, and a COMMIT over 2 ms (in WAL mode, one
// that ran a checkpoint) apart from the rest: that is where SQLite's automatic checkpoints show.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const stats = new Map();
let installed = false;

/** The key a statement's time is counted under. */
function keyOf(method, statement, ns) {
  const sql = statement.source.replace(/\s+/g, ' ').trim();
  if (!/^(BEGIN|COMMIT)/.test(sql)) return `${method} ${sql.slice(0, 140)}`;
  const file = path.basename(statement.database.name);
  return `${method} ${sql} ${file}${/^COMMIT/.test(sql) && ns > 2e6 ? ' (over 2 ms)' : ''}`;
}

function install() {
  if (installed) return;
  installed = true;
  const Database = createRequire(import.meta.url)('better-sqlite3');
  const probe = new Database(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  for (const method of ['run', 'get', 'all']) {
    const original = statementPrototype[method];
    statementPrototype[method] = function timed(...args) {
      const start = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const ns = Number(process.hrtime.bigint() - start);
        const key = keyOf(method, this, ns);
        const entry = stats.get(key) ?? { count: 0, ns: 0 };
        entry.count += 1;
        entry.ns += ns;
        stats.set(key, entry);
      }
    };
  }
}

/** Runs `fn` with every statement timed; writes `<dir>/<name>.txt`, the costliest first. */
export async function withSqliteTiming(dir, name, fn) {
  install();
  stats.clear();
  try {
    return await fn();
  } finally {
    const rows = [...stats.entries()].sort((a, b) => b[1].ns - a[1].ns);
    const totalMs = rows.reduce((sum, [, { ns }]) => sum + ns, 0) / 1e6;
    const lines = rows.map(([key, { count, ns }]) =>
      [
        `${(ns / 1e6).toFixed(0)} ms`.padStart(9),
        String(count).padStart(7),
        `${(ns / count / 1e3).toFixed(1)} µs`.padStart(11),
        key,
      ].join(' '),
    );
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, `${name}.txt`),
      [
        `${name}: ${totalMs.toFixed(0)} ms in statements`,
        '    total   count       mean statement',
        ...lines,
        '',
      ].join('\n'),
    );
  }
}
