/** The admin API's input checks and answers that need no linked client. */
import { startTestSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';

let sim: TestSim;

beforeAll(async () => {
  sim = await startTestSim();
});

afterAll(async () => {
  await sim.stop();
});

describe('admin API', () => {
  it('reports health and the connection policy', async () => {
    const { status, body } = await sim.admin.get<{ ok: boolean; policy: { mode: string } }>('/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, policy: { mode: 'accept' } });
  });

  it('answers 400 with the zod problems for bad bodies', async () => {
    const badMode = await sim.admin.post<{ error: string }>('/connections', { mode: 'sometimes' });
    expect(badMode.status).toBe(400);
    expect(badMode.body.error).toMatch(/^mode: /);
    const badPhone = await sim.admin.post<{ error: string }>('/contacts/15550007001/messages', {
      to: '+1 555',
      text: 'x',
    });
    expect(badPhone.status).toBe(400);
    const noText = await sim.admin.post<{ error: string }>('/contacts/15550007001/messages', {
      to: '15550007002',
    });
    expect(noText.body.error).toMatch(/text/);
    const noQr = await sim.admin.post('/mock-phone/scan-qr', {});
    expect(noQr.status).toBe(400);
  });

  it('answers 400 for a contact message that is not one kind of content', async () => {
    const send = (body: Record<string, unknown>) =>
      sim.admin.post<{ error: string }>('/contacts/15550007001/messages', { to: '15550007002', ...body });
    const both = await send({ text: 'x', content: { type: 'revoke', messageId: 'A' } });
    expect(both).toEqual({ status: 400, body: { error: 'text: give text or content, not both' } });
    const unknown = await send({ content: { type: 'teleport' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^content\.type: /);
    const offMap = await send({ content: { type: 'location', latitude: 91, longitude: 0 } });
    expect(offMap.body.error).toMatch(/^content\.latitude: /);
    const notVcard = await send({ content: { type: 'contact', displayName: 'D', vcard: 'D' } });
    expect(notVcard.body.error).toBe('content.vcard: a vCard runs from BEGIN:VCARD to END:VCARD');
    const noEmoji = await send({ content: { type: 'reaction', messageId: 'A' } });
    expect(noEmoji.body.error).toMatch(/^content\.emoji: /);
    const emptyEdit = await send({ content: { type: 'edit', messageId: 'A', text: '' } });
    expect(emptyEdit.body.error).toMatch(/^content\.text: /);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await fetch(`${sim.running.adminUrl}/connections`, { method: 'POST', body: '{nope' });
    expect(response.status).toBe(400);
  });

  it('answers 404 for unknown contacts, accounts, groups and routes, and 405 for a wrong method', async () => {
    expect((await sim.admin.get('/contacts/15550007009/messages')).status).toBe(404);
    expect(
      (await sim.admin.post('/contacts/15550007001/messages', { to: '15550007002', text: 'x' })).status,
    ).toBe(404);
    const toGroup = await sim.admin.post('/contacts/15550007001/messages', {
      to: '120363000000000001@g.us',
      text: 'x',
    });
    expect(toGroup.status).toBe(404);
    expect((await sim.admin.get('/accounts/15550007002')).status).toBe(404);
    expect((await sim.admin.get('/nowhere')).status).toBe(404);
    expect((await sim.admin.get('/mock-phone/scan-qr')).status).toBe(405);
  });

  it('creates and configures contacts', async () => {
    const created = await sim.admin.post<{ number: string; lid: string }>('/contacts', {
      number: '15550007003',
      name: 'Dana',
    });
    expect(created.status).toBe(201);
    expect(created.body.lid).toMatch(/^\d{15}@lid$/);
    const configured = await sim.admin.ok<{ config: { autoRead: boolean } }>('/contacts/15550007003/config', {
      autoRead: true,
    });
    expect(configured.config.autoRead).toBe(true);
  });

  it('answers 400 for an image without a QR code', async () => {
    const blank = await fetch(`${sim.running.adminUrl.replace('/admin', '')}/media/profile/15550007003.png`);
    expect(blank.headers.get('content-type')).toBe('image/png');
    const dataUrl = `data:image/png;base64,${Buffer.from(await blank.arrayBuffer()).toString('base64')}`;
    const reply = await sim.admin.post<{ error: string }>('/mock-phone/scan-qr', { qr: dataUrl });
    expect(reply).toEqual({ status: 400, body: { error: 'no QR code found in the image' } });
  });
});
