/**
 * Reading a QR the way a phone camera would: a `data:image/png;base64,…` URL (what gateways show users) is
 * decoded with pngjs and jsQR back to the QR string. Both are CommonJS packages loaded through `require`
 * (jsQR's typings misdescribe its default export under NodeNext; pngjs ships none).
 */
import { createRequire } from 'node:module';
import type { QRCode } from 'jsqr';
import { badRequest } from '#tests/wa-sim/support/errors.js';

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => QRCode | null;
interface PngReader {
  PNG: { sync: { read(buffer: Buffer): { width: number; height: number; data: Buffer } } };
}

const DATA_URL = /^data:image\/png;base64,(.+)$/;
const require = createRequire(import.meta.url);

function isPngReader(value: unknown): value is PngReader {
  const png = typeof value === 'object' && value !== null && 'PNG' in value ? value.PNG : undefined;
  return typeof png === 'function' && 'sync' in png;
}

function isJsQr(value: unknown): value is JsQr {
  return typeof value === 'function';
}

/** True when `value` looks like a PNG data URL rather than a raw QR string. */
export function isPngDataUrl(value: string): boolean {
  return DATA_URL.test(value);
}

/** Decodes the QR in a PNG data URL; throws a 400 when there is none. */
export function decodeQrDataUrl(dataUrl: string): string {
  const base64 = DATA_URL.exec(dataUrl)?.[1];
  if (!base64) throw badRequest('qr is not a PNG data URL');
  const pngjs: unknown = require('pngjs');
  const jsqr: unknown = require('jsqr');
  if (!isPngReader(pngjs) || !isJsQr(jsqr)) throw new Error('pngjs/jsqr are not usable');
  let image: { width: number; height: number; data: Buffer };
  try {
    image = pngjs.PNG.sync.read(Buffer.from(base64, 'base64'));
  } catch {
    throw badRequest('qr data URL is not a readable PNG');
  }
  const pixels = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  const code = jsqr(pixels, image.width, image.height);
  if (!code?.data) throw badRequest('no QR code found in the image');
  return code.data;
}
