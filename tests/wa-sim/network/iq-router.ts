/**
 * Routes client iqs by namespace. Every iq gets an answer with its id (clients match replies only by id);
 * namespaces the simulator has no model for get a bare result, and unknown ones are logged once.
 */

import type { ClientConnection } from '#tests/wa-sim/accounts/accounts.js';
import { handleAppStateIq } from '#tests/wa-sim/accounts/app-state.js';
import { handleBlocklistIq } from '#tests/wa-sim/accounts/blocklist.js';
import { handleRemoveCompanion } from '#tests/wa-sim/accounts/client-logout.js';
import { handleEncryptIq } from '#tests/wa-sim/accounts/keys.js';
import { handleProfilePictureIq } from '#tests/wa-sim/accounts/profile-picture.js';
import { handleMexIq } from '#tests/wa-sim/accounts/restriction.js';
import { handleUsyncIq } from '#tests/wa-sim/accounts/usync.js';
import { handleGroupIq } from '#tests/wa-sim/groups/group-iq.js';
import { runPostLinkSync } from '#tests/wa-sim/linking/phone.js';
import { handleMediaConnIq } from '#tests/wa-sim/media/media-conn.js';
import { SimError } from '#tests/wa-sim/support/errors.js';
import {
  type BinaryNode,
  child,
  firstChild,
  iqError,
  iqResult,
  makeNode,
} from '#tests/wa-sim/transport/binary.js';
import type { Simulator } from './simulator.js';

/** Namespaces answered with a bare result on purpose (keep-alive, telemetry, settings the sim does not model). */
const BARE_RESULT = new Set(['w:p', 'w:stats', 'status', 'disappearing_mode', 'urn:xmpp:whatsapp:dirty']);
const PRIVACY_DEFAULTS: Record<string, string> = {
  readreceipts: 'all',
  last: 'all',
  online: 'all',
  profile: 'all',
  status: 'all',
  groupadd: 'all',
  calladd: 'all',
  messages: 'all',
};

/** Answers one iq; undefined when the answer was already sent or none is due. */
export async function routeIq(
  sim: Simulator,
  connection: ClientConnection,
  iq: BinaryNode,
): Promise<BinaryNode | undefined> {
  if (iq.attrs.type === 'result' || iq.attrs.type === 'error') return undefined;
  const xmlns = iq.attrs.xmlns ?? '';
  try {
    if (xmlns === 'md') return await handleMd(sim, connection, iq);
    // Everything else needs a logged-in device.
    const device = connection.device;
    if (!device) return iqError(iq, 401, 'not-authorized');
    switch (xmlns) {
      case 'encrypt':
        return handleEncryptIq(sim, connection, iq);
      case 'usync':
        return handleUsyncIq(sim, iq);
      case 'w:g2':
        return handleGroupIq(sim, connection, iq);
      case 'w:profile:picture':
        return handleProfilePictureIq(sim, iq, device.account.phone);
      case 'passive':
        // The client is past its pre-key upload: the phone can now reach it.
        if (child(iq, 'active')) void runPostLinkSync(sim, device);
        return iqResult(iq);
      case 'w:sync:app:state':
        return handleAppStateIq(sim, connection, iq);
      case 'privacy':
        return privacyResult(sim, iq);
      case 'blocklist':
        return handleBlocklistIq(sim, connection, iq);
      case 'w:mex':
        return handleMexIq(iq, device) ?? bareResult(sim, iq);
      case 'w:m':
        return handleMediaConnIq(sim, iq);
      case 'abt':
        return iqResult(iq, [makeNode('props', { protocol: '1', hash: '0' })]);
      default:
        return bareResult(sim, iq);
    }
  } catch (error) {
    if (error instanceof SimError) return iqError(iq, error.status, error.message);
    throw error;
  }
}

/** A bare result, logged once per namespace unless the namespace is answered so on purpose. */
function bareResult(sim: Simulator, iq: BinaryNode): BinaryNode {
  const xmlns = iq.attrs.xmlns ?? '';
  if (!BARE_RESULT.has(xmlns))
    sim.warnOnce(`iq:${xmlns}`, `unhandled iq xmlns=${xmlns}; answering a bare result`);
  return iqResult(iq);
}

async function handleMd(
  sim: Simulator,
  connection: ClientConnection,
  iq: BinaryNode,
): Promise<BinaryNode | undefined> {
  const request = firstChild(iq);
  if (request?.tag === 'link_code_companion_reg') return sim.pairing.handleLinkCodeIq(connection, iq);
  if (request?.tag === 'remove-companion-device' && connection.device) {
    // The client logs itself out; answered there, or held while the account holds logouts.
    handleRemoveCompanion(sim, connection, iq, connection.device);
    return undefined;
  }
  return iqResult(iq);
}

function privacyResult(sim: Simulator, iq: BinaryNode): BinaryNode {
  if (iq.attrs.type === 'set' && child(iq, 'tokens')) sim.stats.privacyTokensIssued++;
  if (iq.attrs.type !== 'get' || !child(iq, 'privacy')) return iqResult(iq);
  const categories = Object.entries(PRIVACY_DEFAULTS).map(([name, value]) =>
    makeNode('category', { name, value }),
  );
  return iqResult(iq, [makeNode('privacy', {}, categories)]);
}
