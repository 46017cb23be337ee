/**
 * A group's picture: `iq xmlns=w:profile:picture target=<group>` gets it (members only; 404 item-not-found while it
 * has none), sets it (`<picture type=image>` with the JPEG the client made) or removes it (no `<picture>`), under the
 * rule of the group's info (any member; admins only once locked: 401 not-authorized). Every member account's
 * companions hear of a change as `<notification type="picture" from="<group>">` with `<set jid id author/>` or
 * `<delete jid author/>`, which Baileys reports as `contacts.update [{id: group, imgUrl: 'changed' | 'removed'}]` and
 * a `GROUP_CHANGE_ICON` stub message from the author. The files are served at `GROUP_PICTURE_PATH`.
 */
import { createHash, randomInt } from 'node:crypto';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  bytesOf,
  child,
  iqResult,
  makeNode,
  pnJid,
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import { notifyGroup } from './group-changes.js';
import {
  answerGroupIq,
  badGroupRequest,
  GroupRefusal,
  requireInfoEditor,
  requireMember,
} from './group-rules.js';
import type { Group, GroupPicture } from './groups.js';

/** HTTP path prefix of the group picture files: `<prefix><group id>/<picture id>`. */
export const GROUP_PICTURE_PATH = '/media/group-picture/';

/** Answers a picture iq whose target is `group`, for the account `me`. */
export function handleGroupPictureIq(sim: Simulator, group: Group, me: string, iq: BinaryNode): BinaryNode {
  return answerGroupIq(iq, () => {
    const request = child(iq, 'picture');
    if (iq.attrs.type === 'get') return iqResult(iq, [pictureNode(sim, group, me, request)]);
    if (!request) {
      removeGroupPicture(sim, group, me);
      return iqResult(iq);
    }
    const bytes = bytesOf(request);
    if (!bytes?.length) throw badGroupRequest('a picture set carries the image');
    const picture = setGroupPicture(sim, group, me, bytes, 'image/jpeg');
    return iqResult(iq, [makeNode('picture', { id: picture.id })]);
  });
}

/** The `<picture>` answering a member's get: the full image or its thumbnail (the same file here), as asked. */
function pictureNode(sim: Simulator, group: Group, me: string, request: BinaryNode | undefined): BinaryNode {
  requireMember(group, me);
  const { picture } = group;
  if (!picture) throw new GroupRefusal(404, 404, 'item-not-found', `${group.jid} has no picture`);
  const type = request?.attrs.type === 'image' ? 'image' : 'preview';
  const path = `${GROUP_PICTURE_PATH}${group.id}/${picture.id}`;
  return makeNode('picture', { id: picture.id, type, url: `${sim.httpBase}${path}`, direct_path: path });
}

/** Sets the group's picture as `actor`, and tells the members. */
export function setGroupPicture(
  sim: Simulator,
  group: Group,
  actor: string,
  bytes: Buffer,
  mimetype: string,
): GroupPicture {
  requireInfoEditor(group, actor);
  const picture = { id: String(randomInt(1e9, 2e9)), bytes, mimetype, author: actor, time: unixNow() };
  group.picture = picture;
  const change = makeNode('set', { jid: group.jid, id: picture.id, author: pnJid(actor) });
  notifyGroup(sim, group, actor, change, group.members.keys(), 'picture');
  return picture;
}

/** Removes the group's picture as `actor` (a group without one stays so), and tells the members. */
export function removeGroupPicture(sim: Simulator, group: Group, actor: string): void {
  requireInfoEditor(group, actor);
  group.picture = undefined;
  const change = makeNode('delete', { jid: group.jid, author: pnJid(actor) });
  notifyGroup(sim, group, actor, change, group.members.keys(), 'picture');
}

/** The picture as the admin API shows it. */
export function pictureView(picture: GroupPicture | undefined): Record<string, unknown> | null {
  if (!picture) return null;
  return {
    id: picture.id,
    sha256: createHash('sha256').update(picture.bytes).digest('hex'),
    size: picture.bytes.length,
    mimetype: picture.mimetype,
    author: picture.author,
    setAt: new Date(picture.time * 1000).toISOString(),
  };
}

/** The file at `<GROUP_PICTURE_PATH><group id>/<picture id>`: the group's current picture, if that is its id. */
export function groupPictureFile(
  sim: Simulator,
  groupId: string,
  pictureId: string,
): GroupPicture | undefined {
  const picture = sim.groups.get(groupId)?.picture;
  return picture?.id === pictureId ? picture : undefined;
}
