/** The media allow-map and the key shape: what is served as itself, what is opaque, and which keys exist. */
import { describe, expect, it } from '@jest/globals';
import {
  mediaExtension,
  mediaKey,
  mediaTypeOfExtension,
  parseMediaKey,
  servedMediaType,
} from '#shared/domain/media.js';

const SESSION = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('media types', () => {
  it.each([
    ['image/jpeg', 'image/jpeg', 'jpg'],
    ['Image/JPEG', 'image/jpeg', 'jpg'],
    ['audio/ogg; codecs=opus', 'audio/ogg', 'ogg'],
    ['video/mp4', 'video/mp4', 'mp4'],
    ['application/pdf', 'application/pdf', 'pdf'],
    [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'docx',
    ],
  ])('%s is served as %s and stored as .%s', (given, served, extension) => {
    expect(servedMediaType(given)).toBe(served);
    expect(mediaExtension(given)).toBe(extension);
    expect(mediaTypeOfExtension(extension)).toBe(served);
  });

  it.each([
    'text/html',
    'application/xhtml+xml',
    'image/svg+xml',
    'text/xml',
    'application/xml',
    'application/javascript',
    'text/javascript',
    'application/x-shockwave-flash',
    'image/jpeg/../html',
    '',
    null,
    undefined,
    'toString',
    '__proto__',
  ])('%s (active, unknown or malformed) is opaque: application/octet-stream, .bin', (given) => {
    expect(servedMediaType(given)).toBe('application/octet-stream');
    expect(mediaExtension(given)).toBe('bin');
  });

  it('an unknown extension stands for application/octet-stream', () => {
    expect(mediaTypeOfExtension('html')).toBe('application/octet-stream');
    expect(mediaTypeOfExtension('bin')).toBe('application/octet-stream');
  });
});

describe('media keys', () => {
  it('are <session>/<message>.<extension>, made only from ids that cannot leave the folder', () => {
    expect(mediaKey(SESSION, '3EB0C431D2A1', 'image/png')).toBe(`${SESSION}/3EB0C431D2A1.png`);
    expect(mediaKey(SESSION, 'a_b-c', 'text/html')).toBe(`${SESSION}/a_b-c.bin`);
    for (const messageId of ['..', 'a/b', 'a\\b', 'a.b', '', 'x'.repeat(129), 'a b', 'ü']) {
      expect([messageId, mediaKey(SESSION, messageId, 'image/png')]).toEqual([messageId, null]);
    }
    for (const sessionId of ['..', 'abc', SESSION.toUpperCase(), `${SESSION}/..`]) {
      expect([sessionId, mediaKey(sessionId, 'A', 'image/png')]).toEqual([sessionId, null]);
    }
  });

  it('parse back into their parts; nothing else parses', () => {
    expect(parseMediaKey(`${SESSION}/M-1.ogg`)).toEqual({
      sessionId: SESSION,
      fileName: 'M-1.ogg',
      extension: 'ogg',
    });
    for (const key of [
      `${SESSION}/../x.jpg`,
      `../${SESSION}/x.jpg`,
      `/${SESSION}/x.jpg`,
      `${SESSION}/x.jpg\n`,
      `${SESSION}/x.JPG`,
      `${SESSION}/x`,
      `${SESSION}//x.jpg`,
      `${SESSION}/a/x.jpg`,
      `${SESSION}%2F..%2Fx.jpg`,
    ]) {
      expect([key, parseMediaKey(key)]).toEqual([key, null]);
    }
  });
});
