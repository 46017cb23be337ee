/**
 * The contacts routes on the test engine, whose network directory says who is on WhatsApp (the Baileys engine
 * against the simulator: tests/e2e/baileys-contacts.test.ts). What every engine operation answers for access,
 * state and capability is tested from the rows (engine-operations.test.ts); this is what each answers.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { expectError, linkedSession } from './sessions-support.js';

describe('GET /api/sessions/{sessionId}/contacts/check/{number}', () => {
  let gw: TestGateway;
  let sessionId: string;
  const check = (number: string) =>
    gw.request('GET', `/api/sessions/${sessionId}/contacts/check/${encodeURIComponent(number)}`);

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await linkedSession(gw)).id;
    gw.network.directory.register('15550002222', '880001');
    gw.network.directory.register('15550003333');
  });
  afterAll(async () => {
    await gw.close();
  });

  it('a number on WhatsApp: its id, and its LID when the network tells it', async () => {
    const answer = await check('15550002222');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      number: '15550002222',
      exists: true,
      whatsappId: '15550002222@c.us',
      lid: '880001@lid',
    });
    expect((await check('15550003333')).body).toMatchObject({ exists: true, lid: null });
  });

  it('a number that is not on WhatsApp', async () => {
    const answer = await check('15550009999');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ number: '15550009999', exists: false, whatsappId: null, lid: null });
  });

  it.each(['+15550002222', '1555', '1555000222233334', '15550002222@c.us'])(
    '%s is not a number in international format: 400',
    async (number) => {
      expectError(await check(number), 400, 'VALIDATION_FAILED');
    },
  );
});
