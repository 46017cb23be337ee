/**
 * Which requests of POST /mcp skip the SDK's HTTP transport (functions/mcp/single-request.ts): one plain JSON-RPC
 * request the transport would hand to the server as it is; everything the transport refuses or treats otherwise goes
 * through it. (tests/api/mcp.test.ts checks that both paths answer alike.)
 */
import { describe, expect, it } from '@jest/globals';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { singleRequest } from '#functions/mcp/single-request.js';

const CALL = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'SessionFindAll', arguments: {} },
};
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

const event = (
  body: unknown,
  headers: Record<string, string> = {},
): Pick<APIGatewayProxyEventV2, 'headers' | 'body'> => ({
  headers: { ...HEADERS, ...headers },
  ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
});

describe('singleRequest', () => {
  it('takes one request with the headers an SDK client sends, with or without a supported protocol version', () => {
    expect(singleRequest(event(CALL))).toEqual(CALL);
    expect(singleRequest(event(CALL, { 'mcp-protocol-version': '2025-11-25' }))).toEqual(CALL);
    expect(singleRequest(event({ jsonrpc: '2.0', id: 'p', method: 'ping' }))).toEqual({
      jsonrpc: '2.0',
      id: 'p',
      method: 'ping',
    });
  });

  it.each([
    ['an Accept without SSE', event(CALL, { accept: 'application/json' })],
    [
      'another spelling of the JSON content type',
      event(CALL, { 'content-type': 'application/json; charset=utf-8' }),
    ],
    ['a protocol version the SDK does not support', event(CALL, { 'mcp-protocol-version': '1999-01-01' })],
    ['no body', event(undefined)],
    ['a body that is no JSON', event('{"jsonrpc":')],
    ['a batch', event([CALL])],
    ['a notification', event({ jsonrpc: '2.0', method: 'notifications/initialized' })],
    ['a response', event({ jsonrpc: '2.0', id: 1, result: {} })],
    ['an initialize', event({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })],
    ['no JSON-RPC message', event({ id: 1, method: 'tools/call' })],
  ])('leaves %s to the transport', (_what, request) => {
    expect(singleRequest(request)).toBeUndefined();
  });
});
