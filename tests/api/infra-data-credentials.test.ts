/**
 * Linked-device credentials in the data export, on request only (includeCredentials): a session exported with them
 * from one gateway and imported into a fresh one resumes there without a QR; without them it shows a QR. Both
 * directions with credentials are audited as warnings; a flag that is no boolean is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { type ExportBody, importInto } from './infra-data-support.js';
import { type AuditRow, createSession, linkedSession, startTo } from './sessions-support.js';

const IDENTITY = { phone: '15550007070', pushName: 'Mover' };

type CredentialsRow = { sessionId: string; credentials: string | null; keys: unknown[] };
type Document = ExportBody & { tables: ExportBody['tables'] & { credentials?: CredentialsRow[] } };

async function exportWith(gw: TestGateway, query: string): Promise<Document> {
  const res = await gw.request('GET', `/api/infra/export-data${query}`);
  if (res.status !== 200) throw new Error(`export failed: ${res.status} ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text) as Document;
}

/** The newest audit entry of `action` (the export and import await theirs before answering). */
async function lastAudit(gw: TestGateway, action: string): Promise<AuditRow | undefined> {
  const res = await gw.request<{ data: AuditRow[] }>('GET', `/api/audit?action=${action}&limit=1`);
  expect(res.status).toBe(200);
  return res.body.data[0];
}

// One in-process gateway serves requests at a time (the functions' dependencies are process-wide): every request to
// the source is made before the first target starts.
describe('linked-device credentials in the data export', () => {
  const gateways: TestGateway[] = [];
  let source: TestGateway;
  let linked: string;
  let unlinked: string;
  let plain: Document;
  let withCredentials: Document;

  beforeAll(async () => {
    source = await startTestGateway();
    gateways.push(source);
    linked = (await linkedSession(source, {}, IDENTITY)).id;
    unlinked = (await createSession(source)).id;
  });
  afterAll(() => Promise.all(gateways.map((gw) => gw.close())));

  async function freshTarget(): Promise<TestGateway> {
    const target = await startTestGateway();
    gateways.push(target);
    return target;
  }

  it('refuses an includeCredentials that is no boolean (400)', async () => {
    for (const value of ['yes', '1', 'TRUE', ''])
      expect((await source.request('GET', `/api/infra/export-data?includeCredentials=${value}`)).status).toBe(
        400,
      );
  });

  it('exports credentials only with the flag, audited as a warning then', async () => {
    for (const query of ['', '?includeCredentials=false']) {
      const doc = await exportWith(source, query);
      expect(Object.keys(doc.tables)).not.toContain('credentials');
      expect(await lastAudit(source, 'infra_data_exported')).toMatchObject({ severity: 'info' });
      plain = doc;
    }
    withCredentials = await exportWith(source, '?includeCredentials=true');
    expect(withCredentials.tables.credentials?.map((row) => row.sessionId)).toEqual([linked]);
    expect(JSON.parse(withCredentials.tables.credentials?.[0]?.credentials ?? 'null')).toEqual(IDENTITY);
    expect(await lastAudit(source, 'infra_data_exported')).toMatchObject({
      severity: 'warn',
      metadata: expect.objectContaining({ includeCredentials: true }),
    });
  });

  it('without credentials in the document, the session shows a QR on the target', async () => {
    const target = await freshTarget();
    const res = await importInto(target, plain);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('credentials');
    expect(await lastAudit(target, 'infra_data_imported')).toMatchObject({ severity: 'info' });
    await startTo(target, linked, 'qr_ready');
  });

  it('with them the linked device moves: the session resumes on the target without a QR (audited as a warning)', async () => {
    const target = await freshTarget();
    expect(target.network.credentialsOf(linked)).toBeUndefined();
    const res = await importInto(target, withCredentials);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ credentials: 1 });
    expect(await lastAudit(target, 'infra_data_imported')).toMatchObject({
      severity: 'warn',
      metadata: expect.objectContaining({ includeCredentials: true, credentials: 1 }),
    });
    const ready = await startTo(target, linked, 'ready');
    expect(ready.phone).toBe(IDENTITY.phone);
    // A session without credentials in the document keeps none on the target.
    await startTo(target, unlinked, 'qr_ready');
  });

  it("replaces what the target held: a session without a row in the document's credentials keeps none", async () => {
    const target = await freshTarget();
    expect((await importInto(target, withCredentials)).status).toBe(200);
    const emptied = { ...withCredentials, tables: { ...withCredentials.tables, credentials: [] } };
    expect((await importInto(target, emptied)).body).toMatchObject({ credentials: 0 });
    await startTo(target, linked, 'qr_ready');
  });

  it('refuses credentials naming a session the document lacks, changing nothing', async () => {
    const target = await freshTarget();
    const row = withCredentials.tables.credentials?.[0] as CredentialsRow;
    const stray = { ...row, sessionId: '00000000-0000-4000-8000-000000000000' };
    const doc = { ...withCredentials, tables: { ...withCredentials.tables, credentials: [stray] } };
    const res = await importInto(target, doc);
    expect(res.status).toBe(400);
    expect(res.text).toContain('IMPORT_INVALID');
    expect((await exportWith(target, '')).tables.sessions).toEqual([]);
  });
});
