/**
 * The label routes on the test engine, which does every label capability (on Baileys reading labels is 501, from
 * the capability table: engine-capabilities.test.ts; its edits and tags over app-state: e2e baileys-labels): a
 * label created, changed, read, tagged on chats and taken off, deleted; 404 for an unknown label. Both modes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { expectError, expectValidation, linkedSession } from './sessions-support.js';

const ALICE = '15550002222@c.us';
const GROUP = '120363025246125411@g.us';

describe('labels', () => {
  let gw: TestGateway;
  let sessionId: string;
  const call = (method: string, path: string, body?: unknown) =>
    gw.request(method, `/api/sessions/${sessionId}/labels${path}`, body === undefined ? {} : { body });

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await linkedSession(gw)).id;
  });
  afterAll(async () => {
    await gw.close();
  });

  it('creates and changes a label, and reads it with its colour', async () => {
    expect((await call('PUT', '/7', { name: 'VIP', color: 1 })).body).toEqual({ success: true });
    expect((await call('GET', '/7')).body).toEqual({ id: '7', name: 'VIP', hexColor: '#64C4FF' });
    await call('PUT', '/7', { color: 13 });
    expect((await call('GET', '')).body).toEqual([{ id: '7', name: 'VIP', hexColor: '#F74848' }]);
  });

  it('tags chats and takes a tag off', async () => {
    expect((await call('POST', `/chat/${encodeURIComponent(ALICE)}`, { labelId: '7' })).body).toEqual({
      success: true,
    });
    await call('POST', `/chat/${encodeURIComponent(GROUP)}`, { labelId: '7' });
    expect((await call('GET', '/7/chats')).body).toEqual([{ id: ALICE }, { id: GROUP }]);
    expect((await call('GET', `/chat/${encodeURIComponent(ALICE)}`)).body).toEqual([
      { id: '7', name: 'VIP', hexColor: '#F74848' },
    ]);
    expect((await call('DELETE', `/chat/${encodeURIComponent(ALICE)}/7`)).body).toEqual({ success: true });
    expect((await call('GET', `/chat/${encodeURIComponent(ALICE)}`)).body).toEqual([]);
  });

  it('deletes a label; an unknown one is 404', async () => {
    expect((await call('DELETE', '/7')).body).toEqual({ success: true });
    expectError(await call('GET', '/7'), 404, 'NOT_FOUND');
    expectError(await call('POST', `/chat/${encodeURIComponent(ALICE)}`, { labelId: '7' }), 404, 'NOT_FOUND');
  });

  it('bad input is 400 with the field named', async () => {
    expectValidation(await call('PUT', '/8', {}), 'body');
    expectValidation(await call('PUT', '/8', { color: 20 }), 'body.color');
    expectValidation(await call('GET', '/abc'), 'path.labelId');
    expectValidation(await call('POST', `/chat/${encodeURIComponent(ALICE)}`, {}), 'body.labelId');
  });
});
