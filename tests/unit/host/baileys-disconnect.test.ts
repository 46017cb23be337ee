import { describe, expect, it } from '@jest/globals';
import { describeClose } from '#host/engines/baileys/baileys-disconnect.js';

/** The shape Baileys gives a WebSocket error: a Boom "WebSocket Error (<message>)" with the original as `data`. */
const wsError = (message: string, code = 408) =>
  Object.assign(new Error(`WebSocket Error (${message})`), {
    output: { statusCode: code },
    data: Object.assign(new Error(message), { code: message.split(' ')[1] }),
  });

describe('describeClose', () => {
  it('a failed name lookup or connect: the server was not reached, with the cause as Node gave it', () => {
    expect(describeClose(wsError('getaddrinfo ENOTFOUND web.whatsapp.com'), 'connecting', 408)).toBe(
      'Cannot reach the WhatsApp server (getaddrinfo ENOTFOUND web.whatsapp.com)',
    );
    expect(describeClose(wsError('connect ECONNREFUSED 127.0.0.1:9'), 'connecting', 408)).toBe(
      'Cannot reach the WhatsApp server (connect ECONNREFUSED 127.0.0.1:9)',
    );
  });

  it('the connect deadline: the server was not reached in time', () => {
    const timeout = Object.assign(new Error('no answer within 20000 ms'), { output: { statusCode: 408 } });
    expect(describeClose(timeout, 'connecting', 408)).toBe(
      'Cannot reach the WhatsApp server (no answer within 20000 ms)',
    );
  });

  it('a close before the login completed, and a drop of a working connection, with the status code', () => {
    const closed = Object.assign(new Error('Connection Terminated'), { output: { statusCode: 428 } });
    expect(describeClose(closed, 'handshaking', 428)).toBe(
      'The connection to the WhatsApp server ended before the login completed (Connection Terminated; status 428)',
    );
    expect(describeClose(closed, 'open', 428)).toBe(
      'Connection to the WhatsApp server lost (Connection Terminated; status 428)',
    );
    expect(describeClose(undefined, 'open', undefined)).toBe(
      'Connection to the WhatsApp server lost (connection closed)',
    );
  });

  it('masks credentials of any URL the cause quotes', () => {
    const proxied = wsError('tunnel to http://alice:s3cret@proxy.example:8080 failed');
    const reason = describeClose(proxied, 'connecting', 408);
    expect(reason).toBe('Cannot reach the WhatsApp server (tunnel to http://***@proxy.example:8080 failed)');
    expect(reason).not.toContain('s3cret');
  });
});
