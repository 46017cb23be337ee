/**
 * IP allowlists behind reverse proxies: X-Forwarded-For is believed only when the socket peer is a trusted proxy
 * (TRUSTED_PROXIES), walking the chain right to left past trusted hops; otherwise the header is ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

describe('with TRUSTED_PROXIES=127.0.0.1', () => {
  let gw: TestGateway;
  let exactKey: string;
  let exactKeyId: string;
  let cidrKey: string;
  const asClient = (key: string, forwardedFor?: string) =>
    gw.request('POST', '/api/auth/validate', {
      key,
      ...(forwardedFor === undefined ? {} : { headers: { 'x-forwarded-for': forwardedFor } }),
    });

  beforeAll(async () => {
    gw = await startTestGateway({ TRUSTED_PROXIES: '127.0.0.1' });
    ({ key: exactKey, id: exactKeyId } = await gw.createKey({
      name: 'office only',
      allowedIps: ['10.1.2.3'],
    }));
    ({ key: cidrKey } = await gw.createKey({ name: 'office network', allowedIps: ['10.1.0.0/16'] }));
  });
  afterAll(async () => {
    await gw.close();
  });

  it('admits the forwarded client address that is on the list', async () => {
    const res = await asClient(exactKey, '10.1.2.3');
    expect(res.status).toBe(200);
    expect(res.body.keyId).toBe(exactKeyId);
  });

  it('refuses another forwarded address, and the proxy itself, with 403 FORBIDDEN_IP', async () => {
    for (const forwardedFor of ['10.1.2.4', '192.168.1.1', undefined]) {
      const res = await asClient(exactKey, forwardedFor);
      expect([forwardedFor, res.status, res.body.code]).toEqual([forwardedFor, 403, 'FORBIDDEN_IP']);
    }
  });

  it('walks the chain right to left: trusted hops are skipped, the first untrusted hop is the client', async () => {
    expect((await asClient(exactKey, '10.1.2.3, 127.0.0.1')).status).toBe(200);
    // A client cannot claim an allowed address by prepending it: the proxy appends the real peer.
    expect((await asClient(exactKey, '10.1.2.3, 203.0.113.9')).status).toBe(403);
    expect((await asClient(exactKey, '203.0.113.9, 10.1.2.3')).status).toBe(200);
  });

  it('matches CIDR entries', async () => {
    for (const ip of ['10.1.0.1', '10.1.200.7', '10.1.255.255']) {
      expect([ip, (await asClient(cidrKey, ip)).status]).toEqual([ip, 200]);
    }
    for (const ip of ['10.2.0.1', '10.0.255.255', '11.1.0.1']) {
      expect([ip, (await asClient(cidrKey, ip)).status]).toEqual([ip, 403]);
    }
  });

  it('malformed forwarded addresses never match', async () => {
    for (const forwardedFor of ['10.1.2.3.4', 'not-an-ip', '10.1.2.3/32', ' , ']) {
      const res = await asClient(cidrKey, forwardedFor);
      expect([forwardedFor, res.status]).toEqual([forwardedFor, 403]);
    }
  });

  it('records the resolved client address in the audit log', async () => {
    expect((await asClient(exactKey, '10.1.77.1')).status).toBe(403);
    const entry = await waitFor(async () => {
      const res = await gw.request('GET', `/api/audit?action=api_key_auth_failed&apiKeyId=${exactKeyId}`);
      return res.body.data.find((e: { ipAddress: string }) => e.ipAddress === '10.1.77.1');
    });
    expect(entry).toMatchObject({ statusCode: 403, errorMessage: 'IP address not allowed for this API key' });
  });
});

describe('without TRUSTED_PROXIES', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('ignores X-Forwarded-For: the socket address is the client', async () => {
    const { key } = await gw.createKey({ name: 'office only', allowedIps: ['10.1.2.3'] });
    const spoofed = await gw.request('POST', '/api/auth/validate', {
      key,
      headers: { 'x-forwarded-for': '10.1.2.3' },
    });
    expect([spoofed.status, spoofed.body.code]).toEqual([403, 'FORBIDDEN_IP']);

    const { key: local } = await gw.createKey({ name: 'loopback only', allowedIps: ['127.0.0.1'] });
    const forwarded = await gw.request('POST', '/api/auth/validate', {
      key: local,
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(forwarded.status).toBe(200);
  });
});
