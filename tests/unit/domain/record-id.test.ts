import { describe, expect, it } from '@jest/globals';
import { Uuid } from '#shared/domain/common.js';
import { newRecordId } from '#shared/domain/record-id.js';

const timeOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('newRecordId', () => {
  it('is a version 7 UUID with the RFC variant, which the API schemas accept', () => {
    for (let i = 0; i < 200; i++) {
      const id = newRecordId();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(Uuid.safeParse(id).success).toBe(true);
    }
  });

  it('carries the millisecond it was made in its first 48 bits', () => {
    const before = Date.now();
    const id = newRecordId();
    expect(timeOf(id)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id)).toBeLessThanOrEqual(Date.now());
    expect(timeOf(newRecordId(Date.UTC(2026, 10, 27, 12)))).toBe(Date.UTC(2026, 10, 27, 12));
  });

  it('sorts ids of later milliseconds after earlier ones, whatever their random parts', () => {
    const t = Date.UTC(2026, 0, 1);
    const ids = Array.from({ length: 100 }, (_, i) => newRecordId(t + i * 7));
    expect([...ids].sort()).toEqual(ids);
  });

  it('never repeats within one millisecond', () => {
    const t = Date.now();
    const ids = new Set(Array.from({ length: 10_000 }, () => newRecordId(t)));
    expect(ids.size).toBe(10_000);
  });
});
