/** Renders a QR payload as the PNG data URL that the API and the `session.qr` event carry. */
import type QRCodeModule from 'qrcode';
import { encodeBilevelPng } from './png.js';

/** The image's side in pixels, and the quiet zone around the code in modules. */
const WIDTH = 264;
const MARGIN = 1;

/**
 * qrcode (the symbol's modules; its PNG writer is not used: png.ts) is imported when the first QR is rendered, not at
 * start: a gateway whose sessions are linked already never needs it.
 */
let qrcode: Promise<typeof QRCodeModule> | undefined;

export async function renderQrDataUrl(payload: string): Promise<string> {
  qrcode ??= import('qrcode').then((loaded) => loaded.default);
  const { modules } = (await qrcode).create(payload, { errorCorrectionLevel: 'M' });
  // As qrcode lays it out: the symbol and its margin stretched to WIDTH, each pixel taking the module under it.
  const scale = WIDTH / (modules.size + 2 * MARGIN);
  const moduleAt = Array.from({ length: WIDTH }, (_, pixel) => Math.floor(pixel / scale) - MARGIN);
  const inside = (index: number) => index >= 0 && index < modules.size;
  const rows = new Map<number, boolean[]>();
  const rowOf = (row: number): boolean[] => {
    let pixels = rows.get(row);
    if (!pixels) {
      pixels = moduleAt.map((col) => inside(row) && inside(col) && modules.get(row, col) !== 0);
      rows.set(row, pixels);
    }
    return pixels;
  };
  const png = encodeBilevelPng(
    WIDTH,
    moduleAt.map((row) => rowOf(row)),
  );
  return `data:image/png;base64,${png.toString('base64')}`;
}
