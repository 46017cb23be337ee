/**
 * The QR image a session shows: a PNG that a phone's camera (here pngjs and jsQR, as the simulator's phone reads it)
 * decodes back to the engine's payload, laid out as before (264 px square, a one-module quiet zone).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { encodeBilevelPng } from '#shared/qr/png.js';
import { renderQrDataUrl } from '#shared/qr/render-qr.js';

const require = createRequire(import.meta.url);
interface Decoded {
  width: number;
  height: number;
  data: Buffer;
}
const { PNG } = require('pngjs') as { PNG: { sync: { read(buffer: Buffer): Decoded } } };
const jsQR = require('jsqr') as typeof import('jsqr').default;

const decodePng = (dataUrl: string): Decoded => {
  const [prefix, base64] = dataUrl.split(',');
  expect(prefix).toBe('data:image/png;base64');
  return PNG.sync.read(Buffer.from(base64 ?? '', 'base64'));
};
/** Whether the pixel is black (pngjs hands every PNG back as 8-bit RGBA). */
const dark = (image: Decoded, x: number, y: number) => image.data[(y * image.width + x) * 4] === 0;

describe('renderQrDataUrl', () => {
  // A Baileys QR payload is ref,noise key,identity key,adv secret (about 240 characters); the others bound it.
  const payloads = {
    short: 'waygate-test-qr:1',
    baileys: `2@${'A'.repeat(120)},${'B'.repeat(44)},${'C'.repeat(44)},${'D'.repeat(44)}`,
    long: 'x'.repeat(340),
  };

  it.each(Object.entries(payloads))('a %s payload decodes back from the PNG', async (_, payload) => {
    const image = decodePng(await renderQrDataUrl(payload));
    expect([image.width, image.height]).toEqual([264, 264]);
    const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
    expect(code?.data).toBe(payload);
  });

  it('leaves a white quiet zone of one module around a black finder pattern', async () => {
    const image = decodePng(await renderQrDataUrl(payloads.baileys));
    expect(dark(image, 0, 0)).toBe(false);
    expect(dark(image, 263, 263)).toBe(false);
    // The top-left finder's outer ring starts one module in: find the module's size from the first dark pixel.
    const first = Array.from({ length: 264 }, (_, x) => x).find((x) => dark(image, x, x));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(20);
    expect(dark(image, (first ?? 0) + 1, first ?? 0)).toBe(true);
  });
});

describe('encodeBilevelPng', () => {
  it('writes each pixel, padding rows that do not fill their last byte with white', () => {
    const rows = [
      [true, false, true, false, true, false, true, false, true, true, false],
      [false, false, false, false, false, false, false, false, false, false, true],
    ];
    const image = PNG.sync.read(encodeBilevelPng(11, rows));
    expect([image.width, image.height]).toEqual([11, 2]);
    const read = rows.map((row, y) => row.map((_, x) => dark(image, x, y)));
    expect(read).toEqual(rows);
  });
});
