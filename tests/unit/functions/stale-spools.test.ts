/**
 * A streamed import spools its body to a file it deletes when done; a process killed mid-import cannot, so the next
 * import deletes spool files older than a day and leaves younger ones (another import may be using one) and every
 * other file alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { RequestBody, replayable, STALE_SPOOL_MS } from '#functions/http/request-body.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function* chunks(...parts: string[]) {
  yield* parts;
}

describe('replayable: stale spool files', () => {
  it('deletes spool files older than a day before spooling, and keeps younger ones and other files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-spool-'));
    dirs.push(dir);
    const aged = (name: string, ageMs: number) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, 'x');
      const when = new Date(Date.now() - ageMs);
      fs.utimesSync(file, when, when);
      return file;
    };
    const stale = aged('.import-dead.spool', STALE_SPOOL_MS + 60_000);
    const young = aged('.import-live.spool', 60_000);
    const other = aged('data.sqlite', STALE_SPOOL_MS * 3);

    const body = await replayable(new RequestBody(chunks('{"a":', '1}'), null), dir);
    let text = '';
    for await (const chunk of body.read()) text += chunk.toString();
    expect(text).toBe('{"a":1}');
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(young)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
    await body.dispose();
    expect(fs.readdirSync(dir).sort()).toEqual(['.import-live.spool', 'data.sqlite']);
  });
});
