import { describe, expect, it } from '@jest/globals';
import type { AnyRoute } from '#functions/http/route.js';
import { RouteTable, routeKeyOf } from '#functions/http/route-table.js';
import { allRoutes } from '#functions/manifest.js';

const table = () =>
  new RouteTable<string>()
    .add('GET', '/api/sessions', 'list')
    .add('GET', '/api/sessions/stats/overview', 'stats')
    .add('GET', '/api/sessions/{id}', 'get')
    .add('DELETE', '/api/sessions/{id}', 'delete')
    .add('GET', '/api/sessions/{id}/qr', 'qr')
    .add('GET', '/api/sessions/{sessionId}/messages', 'messages');

describe('RouteTable', () => {
  it('matches a template and gives its parameters as they appear in the path', () => {
    expect(table().match('GET', '/api/sessions/abc%40x/qr')).toEqual({
      value: 'qr',
      routeKey: 'GET /api/sessions/{id}/qr',
      params: { id: 'abc%40x' },
    });
    expect(table().match('GET', '/api/sessions/s1/messages')?.params).toEqual({ sessionId: 's1' });
  });

  it('prefers a static path over a template of the same depth', () => {
    expect(table().match('GET', '/api/sessions/stats/overview')?.value).toBe('stats');
    expect(table().match('GET', '/api/sessions/stats/other')).toBeNull();
  });

  it('prefers, at the first segment where two templates differ, the literal, whatever order they were added in', () => {
    const routes = new RouteTable<string>()
      .add('GET', '/api/sessions/{sessionId}/contacts/{contactId}', 'contact')
      .add('GET', '/api/sessions/{sessionId}/contacts/{contactId}/lid', 'lid')
      .add('GET', '/api/sessions/{sessionId}/contacts/blocked', 'blocked')
      .add('GET', '/api/sessions/{sessionId}/contacts/check/{number}', 'check');
    expect(routes.match('GET', '/api/sessions/s1/contacts/blocked')?.value).toBe('blocked');
    expect(routes.match('GET', '/api/sessions/s1/contacts/1555@c.us')).toMatchObject({
      value: 'contact',
      params: { sessionId: 's1', contactId: '1555@c.us' },
    });
    expect(routes.match('GET', '/api/sessions/s1/contacts/check/1555')?.value).toBe('check');
    expect(routes.match('GET', '/api/sessions/s1/contacts/1555@c.us/lid')?.value).toBe('lid');
  });

  it('tells routes apart by method', () => {
    expect(table().match('DELETE', '/api/sessions/x')?.value).toBe('delete');
    expect(table().match('PUT', '/api/sessions/x')).toBeNull();
  });

  it('tolerates one trailing slash and nothing else', () => {
    expect(table().match('GET', '/api/sessions/')?.value).toBe('list');
    expect(table().match('GET', '/api/sessions/x/')?.value).toBe('get');
    expect(table().match('GET', '/api/sessions//')).toBeNull();
  });

  it('never matches a parameter to an empty segment or across segments', () => {
    expect(table().match('GET', '/api/sessions//qr')).toBeNull();
    expect(table().match('GET', '/api/sessions/a/b')).toBeNull();
    expect(table().match('GET', '/api/sessions/a/qr/x')).toBeNull();
  });

  it('finds a route by the key API Gateway gives it', () => {
    expect(table().get(routeKeyOf('GET', '/api/sessions/{id}'))).toBe('get');
    expect(table().get('$default')).toBeUndefined();
    expect(table().get(undefined)).toBeUndefined();
  });

  it('lists the methods a path has, for the Allow of a 405', () => {
    expect(table().methodsOf('/api/sessions/x')).toEqual(['GET', 'DELETE']);
    expect(table().methodsOf('/api/sessions/x/')).toEqual(['GET', 'DELETE']);
    expect(table().methodsOf('/api/sessions/stats/overview')).toEqual(['GET']);
    expect(table().methodsOf('/api/sessions/x/nope')).toEqual([]);
    expect(table().methodsOf('/api/sessions//qr')).toEqual([]);
  });

  it('refuses a duplicate route and a malformed template', () => {
    expect(() => table().add('GET', '/api/sessions/{id}', 'again')).toThrow('Duplicate route');
    expect(() => new RouteTable().add('GET', '/api/x{id}', 'bad')).toThrow('Invalid route path');
  });

  it("tells the manifest's message routes apart: a chat's history, one message's reactions and media, a batch", () => {
    const routes = new RouteTable<AnyRoute>();
    for (const route of allRoutes()) routes.add(route.method, route.path, route);
    const base = '/api/sessions/s1/messages';
    const keyOf = (method: string, path: string) => routes.match(method, path)?.routeKey;
    expect(routes.match('GET', `${base}/15550001111@c.us/history`)).toMatchObject({
      routeKey: 'GET /api/sessions/{sessionId}/messages/{chatId}/history',
      params: { sessionId: 's1', chatId: '15550001111@c.us' },
    });
    // `batch` is a literal where the history has `{chatId}`: a batch named `history` is still a batch.
    for (const batchId of ['b-1', 'history']) {
      expect(routes.match('GET', `${base}/batch/${batchId}`)).toMatchObject({
        routeKey: 'GET /api/sessions/{sessionId}/messages/batch/{batchId}',
        params: { batchId },
      });
    }
    expect(keyOf('POST', `${base}/batch/b-1/cancel`)).toBe(
      'POST /api/sessions/{sessionId}/messages/batch/{batchId}/cancel',
    );
    expect(keyOf('GET', `${base}/15550001111@c.us/history/reactions`)).toBe(
      'GET /api/sessions/{sessionId}/messages/{chatId}/{messageId}/reactions',
    );
    expect(keyOf('GET', `${base}/15550001111@c.us/ABC/media`)).toBe(
      'GET /api/sessions/{sessionId}/messages/{chatId}/{messageId}/media',
    );
    expect(keyOf('GET', `${base}/search`)).toBe('GET /api/sessions/{sessionId}/messages/search');
    expect(keyOf('POST', `${base}/15550001111@c.us/history`)).toBeUndefined();
  });
});
