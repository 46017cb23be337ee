/**
 * `iq xmlns=w:profile:picture`: accounts and contacts have a picture, served as a small PNG by the admin HTTP
 * server, unless a contact has none (`picture: none`: 404 item-not-found, as for an unknown target) or hides it
 * (`hidden`: 401 not-authorized), as WhatsApp answers. Baileys' `profilePictureUrl` throws on both errors (a Boom
 * whose `data` is the code); it does not answer undefined. A group's picture is what its members set
 * (`groups/group-picture.ts`).
 */
import { createRequire } from 'node:module';
import { sha256 } from '#tests/wa-sim/crypto/crypto.js';
import { handleGroupPictureIq } from '#tests/wa-sim/groups/group-picture.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  child,
  iqError,
  iqResult,
  makeNode,
  parseJid,
} from '#tests/wa-sim/transport/binary.js';

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

/** Answers a picture get or set of the account `me`: a group's (`groups/group-picture.ts`), or a user's. */
export function handleProfilePictureIq(sim: Simulator, iq: BinaryNode, me: string): BinaryNode {
  const target = iq.attrs.target ?? '';
  if (target.endsWith('@g.us')) {
    const group = sim.groups.get(target);
    return group ? handleGroupPictureIq(sim, group, me, iq) : iqError(iq, 404, 'item-not-found');
  }
  // The account's own picture is taken and not kept: every account shows one.
  if (iq.attrs.type === 'set') return iqResult(iq, [makeNode('picture', { id: String(Date.now()) })]);
  const parsed = parseJid(target)?.user ?? '';
  // A user's one picture, whether asked by number or by LID.
  const user = sim.directory.phoneOf(parsed) ?? parsed;
  const shown = pictureOf(sim, user);
  if (shown === 'hidden') return iqError(iq, 401, 'not-authorized');
  if (shown !== 'set') return iqError(iq, 404, 'item-not-found');
  // The full picture (`image`) or its thumbnail (`preview`, Baileys' default), as asked.
  const type = child(iq, 'picture')?.attrs.type === 'image' ? 'image' : 'preview';
  const path = `${PICTURE_PATH}${user}.png`;
  return iqResult(iq, [
    makeNode('picture', { id: '1', type, url: `${sim.httpBase}${path}?type=${type}`, direct_path: path }),
  ]);
}

/** Whether the user (phone number or LID user) has a picture: `undefined` for nobody the simulator knows. */
export function pictureOf(sim: Simulator, user: string): 'set' | 'none' | 'hidden' | undefined {
  if (sim.accounts.findByUser(user)) return 'set';
  return sim.contacts.findByUser(user)?.config.picture;
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
