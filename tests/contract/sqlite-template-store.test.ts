/**
 * What only the SQLite template store shows beyond its contract: templates belong to a session by foreign key
 * (deleting the session cascades, an unknown session is a 404), and names stay unique across a reopen of the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteDataStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { aSession, aTemplate } from '#tests/helpers/builders.js';

const NO_CAP = { maxPerSession: 0 };

describe('sqlite template store', () => {
  let dir: string;
  let file: string;
  let data: DataStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-templates-'));
    file = path.join(dir, 'data.sqlite');
    data = openSqliteDataStore(file);
  });
  afterEach(async () => {
    await data.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('deletes the templates of a session with its row (cascade), and only those', async () => {
    const [gone, kept] = [aSession(), aSession()];
    for (const session of [gone, kept]) await data.sessions.create(session);
    await data.templates.create(aTemplate({ sessionId: gone.id }), NO_CAP);
    const template = aTemplate({ sessionId: kept.id });
    await data.templates.create(template, NO_CAP);

    expect(await data.sessions.delete(gone.id)).toBe(true);
    expect(await data.templates.listBySession(gone.id)).toEqual([]);
    expect(await data.templates.listBySession(kept.id)).toEqual([template]);
  });

  it('rejects a template of an unknown session with NotFoundError, not a retryable 503', async () => {
    const template = aTemplate({ sessionId: '00000000-0000-4000-8000-000000000000' });
    await expect(data.templates.create(template, { maxPerSession: 100 })).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it('keeps names unique across a reopen of the file', async () => {
    const session = aSession();
    await data.sessions.create(session);
    const template = aTemplate({ sessionId: session.id, name: 'kept' });
    await data.templates.create(template, NO_CAP);
    await data.close();
    data = openSqliteDataStore(file);
    expect(await data.templates.findByName(session.id, 'kept')).toEqual(template);
    await expect(
      data.templates.create(aTemplate({ sessionId: session.id, name: 'kept' }), NO_CAP),
    ).rejects.toMatchObject({ status: 409, code: 'TEMPLATE_NAME_TAKEN' });
  });
});
