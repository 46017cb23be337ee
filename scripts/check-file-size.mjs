// House rule: source files stay small (about 300 lines; split by concern). Fails lint above MAX_LINES.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const MAX_LINES = 330;
const files = execFileSync(
  'git',
  [
    'ls-files',
    '--cached',
    '--others',
    '--exclude-standard',
    'functions',
    'host',
    'embedded',
    'shared',
    'tests',
  ],
  {
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((file) => /\.(ts|mjs)$/.test(file) && fs.existsSync(file));
const long = files
  .map((file) => ({ file, lines: fs.readFileSync(file, 'utf8').split('\n').length }))
  .filter(({ lines }) => lines > MAX_LINES);
if (long.length > 0) {
  for (const { file, lines } of long)
    process.stderr.write(`${file}: ${lines} lines (max ${MAX_LINES}); split it by concern\n`);
  process.exit(1);
}
process.stdout.write(`file sizes ok (${files.length} files, max ${MAX_LINES} lines)\n`);
