/**
 * `iq xmlns=w:m <media_conn/>`: where and with which token a client uploads media. Baileys
 * (`refreshMediaConn`) reads the `host` children's `hostname` and `maxContentLengthBytes` and the `auth` and `ttl`
 * attributes, uploads to the first host, and downloads from it too (`getMediaHost`) when a message has only a
 * direct path.
 */
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { type BinaryNode, child, iqResult, makeNode } from '#tests/wa-sim/transport/binary.js';
import { MAX_UPLOAD_BYTES, MEDIA_AUTH_TTL_SECONDS, MEDIA_CONN_TTL_SECONDS } from './media-store.js';

/** Answers a `w:m` iq: the media host and a fresh upload token for `media_conn`, a bare result otherwise. */
export function handleMediaConnIq(sim: Simulator, iq: BinaryNode): BinaryNode {
  if (!child(iq, 'media_conn')) return iqResult(iq);
  const host = makeNode('host', {
    hostname: sim.media.hostname,
    maxContentLengthBytes: String(MAX_UPLOAD_BYTES),
  });
  const mediaConn = makeNode(
    'media_conn',
    {
      auth: sim.media.issueAuth(),
      ttl: String(MEDIA_CONN_TTL_SECONDS),
      auth_ttl: String(MEDIA_AUTH_TTL_SECONDS),
      max_buckets: '12',
    },
    [host],
  );
  return iqResult(iq, [mediaConn]);
}
