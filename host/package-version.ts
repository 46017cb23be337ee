/** The running release: `version` of the package.json found above this module (source tree or dist/). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(from: string = import.meta.url): string {
  let dir = path.dirname(fileURLToPath(from));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const parsed = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === 'waygate' && parsed.version) return parsed.version;
    }
    dir = path.dirname(dir);
  }
  return '0.0.0';
}
