/**
 * The base64 check of media bodies: it accepts exactly what /^[A-Za-z0-9+/]+={0,2}$/ accepts (the rule it
 * replaces, for speed, and the pattern the OpenAPI document states), on chosen edge cases and on random strings over
 * base64's alphabet and its neighbours.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { BASE64_PATTERN, isBase64Text, SendImageBody } from '#shared/domain/send-requests.js';
import { validationIssues } from '#shared/errors/validation-issues.js';

// The pattern the OpenAPI document states for `data`: the check must accept exactly what it accepts.
const RULE = new RegExp(BASE64_PATTERN, 'u');

describe('isBase64Text', () => {
  it('agrees with the regular expression on edge cases', () => {
    const cases = [
      '',
      '=',
      '==',
      'QQ==',
      'QQ=',
      'QUJD',
      'QQ===',
      'Q=Q=',
      'data:image/png;base64,QUJD',
      'QU JD',
      'QUJD\n',
      'QUJD-_',
      'ÄÖÜ=',
      '+/+/',
      randomBytes(3000).toString('base64'),
      randomBytes(3001).toString('base64url'),
    ];
    for (const text of cases)
      expect([text.slice(0, 20), isBase64Text(text)]).toEqual([text.slice(0, 20), RULE.test(text)]);
  });

  it('agrees with it on random strings near the alphabet', () => {
    const alphabet = 'ABCxyz019+/=-_ .\né';
    for (let n = 0; n < 2000; n++) {
      const bytes = randomBytes(1 + (n % 12));
      const text = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
      expect([text, isBase64Text(text)]).toEqual([text, RULE.test(text)]);
    }
  });

  it('refuses a media body whose data is not base64, with the same message as before', () => {
    const issues = validationIssues(SendImageBody, {
      chatId: '15550001111@c.us',
      data: 'not base64!',
      mimetype: 'image/png',
    });
    expect(issues).toHaveLength(1);
    expect(issues?.[0]).toMatchObject({
      path: ['data'],
      message: 'must be base64 (no data: prefix)',
    });
  });
});
