/**
 * `iq xmlns=w:profile:picture`: every known user and group has a picture, served as a small PNG by the admin
 * HTTP server; unknown targets answer 404 item-not-found as WhatsApp does.
 */
import { createRequire } from 'node:module';
import { sha256 } from '#tests/wa-sim/crypto/crypto.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { type BinaryNode, iqError, iqResult, makeNode, parseJid } from '#tests/wa-sim/transport/binary.js';

/** HTTP path prefix of the picture files. */
export const PICTURE_PATH = '/media/profile/';
const SIZE = 96;

interface PngImage {
  data: Buffer;
}
interface PngModule {
  PNG: { new (options: { width: number; height: number }): PngImage; sync: { write(png: PngImage): Buffer } };
}

function isPngModule(value: unknown): value is PngModule {
  const png = typeof value === 'object' && value !== null && 'PNG' in value ? value.PNG : undefined;
  return typeof png === 'function' && 'sync' in png;
}

/** Answers a picture get or set. */
export function handleProfilePictureIq(sim: Simulator, iq: BinaryNode): BinaryNode {
  if (iq.attrs.type === 'set') return iqResult(iq, [makeNode('picture', { id: String(Date.now()) })]);
  const target = iq.attrs.target ?? '';
  const known = sim.groups.get(target) ?? sim.directory.owner(target);
  if (!known) return iqError(iq, 404, 'item-not-found');
  const user = target.endsWith('@g.us') ? target.replace('@g.us', '') : (parseJid(target)?.user ?? '');
  const url = `${sim.httpBase}${PICTURE_PATH}${user}.png`;
  return iqResult(iq, [
    makeNode('picture', { id: '1', type: 'preview', url, direct_path: `${PICTURE_PATH}${user}.png` }),
  ]);
}

/** A solid-colour PNG whose colour is derived from `user`, so pictures differ between users. */
export function renderPicture(user: string): Buffer {
  const pngjs: unknown = createRequire(import.meta.url)('pngjs');
  if (!isPngModule(pngjs)) throw new Error('pngjs is not usable');
  const [red = 0, green = 0, blue = 0] = sha256(Buffer.from(user));
  const png = new pngjs.PNG({ width: SIZE, height: SIZE });
  for (let offset = 0; offset < png.data.length; offset += 4) {
    png.data[offset] = red;
    png.data[offset + 1] = green;
    png.data[offset + 2] = blue;
    png.data[offset + 3] = 255;
  }
  return pngjs.PNG.sync.write(png);
}
