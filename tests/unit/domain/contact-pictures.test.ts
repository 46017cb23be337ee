/**
 * A batch of profile pictures (shared/domain/contact-pictures.ts), as every engine answers it: distinct ids, the
 * first 50, looked up side by side, each null when its lookup fails or outlasts the deadline.
 */
import { describe, expect, it } from '@jest/globals';
import { PICTURES_MAX_IDS, picturesOf } from '#shared/domain/contact-pictures.js';

describe('picturesOf', () => {
  it('answers each distinct id once, in the order given, null for a failed lookup', async () => {
    const asked: string[] = [];
    const answer = await picturesOf('1@c.us,2@lid,1@c.us,3@c.us', async (id) => {
      asked.push(id);
      if (id === '3@c.us') throw new Error('the network refused');
      return id === '1@c.us' ? 'https://pictures.example/1' : null;
    });
    expect(asked).toEqual(['1@c.us', '2@lid', '3@c.us']);
    expect(answer).toEqual({
      pictures: { '1@c.us': 'https://pictures.example/1', '2@lid': null, '3@c.us': null },
    });
    expect(Object.keys(answer.pictures)).toEqual(['1@c.us', '2@lid', '3@c.us']);
  });

  it(`looks up the first ${PICTURES_MAX_IDS} distinct ids only`, async () => {
    const ids = Array.from({ length: 70 }, (_, i) => `${i}@c.us`);
    let asked = 0;
    const answer = await picturesOf(ids.join(','), async () => {
      asked += 1;
      return null;
    });
    expect(asked).toBe(PICTURES_MAX_IDS);
    expect(Object.keys(answer.pictures)).toEqual(ids.slice(0, PICTURES_MAX_IDS));
  });

  it('answers null for a lookup past its deadline, side by side: the batch takes one deadline, not one per id', async () => {
    const started = performance.now();
    const answer = await picturesOf(
      'slow1@c.us,slow2@c.us,fast@c.us',
      (id) =>
        id === 'fast@c.us'
          ? Promise.resolve('https://pictures.example/fast')
          : new Promise((resolve) => setTimeout(() => resolve('too late'), 2_000)),
      100,
    );
    const took = performance.now() - started;
    expect(answer).toEqual({
      pictures: { 'slow1@c.us': null, 'slow2@c.us': null, 'fast@c.us': 'https://pictures.example/fast' },
    });
    expect(took).toBeGreaterThanOrEqual(95);
    expect(took).toBeLessThan(1_500);
  });
});
