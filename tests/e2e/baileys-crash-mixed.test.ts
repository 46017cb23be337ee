/**
 * A gateway killed with SIGKILL during a burst of 500 sends of every kind (texts, locations, contact cards, replies,
 * reactions, and media: images and audio as base64, documents by URL from a local file server, answered first and
 * still queued at the kill), each request carrying an Idempotency-Key, then restarted on the same DATA_DIR. Every
 * request the kill cut off is retried with its key, as a client would. Counted at the simulator's contacts: every
 * request became exactly one message (one network id), every one reached its contact, each media file decrypted to
 * the bytes sent, and no contact received anything else.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Message } from '#shared/domain/message.js';
import { type FileServer, startFileServer } from '#tests/helpers/file-server.js';
import { exited, type GatewayProcess, spawnGateway } from '#tests/helpers/gateway-process.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';
import type { ReceivedMessage } from '#tests/wa-sim/accounts/contacts.js';
import { linkProcessSession, readyAfterRestart } from './process-session.js';

const PREFIX = `1559${String(process.pid % 10_000).padStart(4, '0')}`;
const PHONE = `${PREFIX}001`;
const CONTACTS = [`${PREFIX}901`, `${PREFIX}902`];
const BURST = 500;
// Early in the burst: the API answers sends faster than the host sends them (their writes share commits), so by the
// time a contact has 100 of them every request may be answered, and the kill must also cut requests off.
const KILL_AFTER = 20;
// Or once this many requests are answered, whichever comes first: the host gives the API a turn between its sends,
// so under load the API can answer every request before a contact has KILL_AFTER, and the kill would cut none off.
// This trigger fires from the answer itself; a poll could miss the window.
const KILL_AT_ANSWERED = 300;
const BURST_ENV = {
  SEND_WAIT_MS: '1',
  COMMAND_VISIBILITY_TIMEOUT_S: '2',
  RATE_LIMIT_MAX: '100000',
  // The documents are fetched from the file server on 127.0.0.1.
  SSRF_ALLOWED_HOSTS: '127.0.0.1',
};
/** What request `i` sends: the kinds take turns. */
const KINDS = ['text', 'location', 'contact', 'reply', 'reaction', 'image', 'document', 'audio'] as const;
type Kind = (typeof KINDS)[number];
const MEDIA: ReadonlySet<Kind> = new Set(['image', 'document', 'audio']);
// The media requests (the media turns among the first MEDIA_BEFORE requests: 60 files) go first and are answered
// before the rest of the burst is sent: their messages are still queued when the kill comes, and the new host sends
// them from the archive. Sent along with the rest, they made the kill cut a request off between claiming its key and
// storing its row in 4 runs of 5, and that request's retry waits until IDEMPOTENCY_TAKEOVER_MS (60 s) takes the claim
// for dead (409 IDEMPOTENCY_KEY_IN_PROGRESS until then).
const MEDIA_BEFORE = 160;
/** The media requests' files: small and each its own, so a file sent with another request's message shows. */
const MEDIA_BYTES = 2048;

const kindOf = (i: number): Kind => {
  const kind = KINDS[i % KINDS.length] as Kind;
  return MEDIA.has(kind) && i >= MEDIA_BEFORE ? 'text' : kind;
};
/** What the contact decodes request `i` as (a reply is a text with a quote). */
const receivedKindOf = (i: number): string => (kindOf(i) === 'reply' ? 'text' : kindOf(i));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** The file of each media request, by index (a retry sends the same bytes as the cut-off request). */
const FILES = new Map(
  Array.from({ length: BURST }, (_, i) => i)
    .filter((i) => MEDIA.has(kindOf(i)))
    .map((i) => [i, randomBytes(MEDIA_BYTES)] as const),
);

interface Request {
  action: string;
  body: Record<string, unknown>;
  contact: string;
  key: string;
  /** A media request's file. */
  file?: Buffer;
}

describe('a host killed with SIGKILL during a burst of 500 mixed sends', () => {
  let sim: SimulatorProcess;
  let files: FileServer;
  let dataDir: string;
  let sessionId: string;
  const gateways: GatewayProcess[] = [];
  const current = () => gateways.at(-1) as GatewayProcess;
  /** The row each request was answered with, by request index. */
  const answered = new Map<number, Message>();
  /** Called after each answered request (the kill trigger during the burst). */
  let onAnswered: (() => void) | null = null;

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    const served = [...FILES]
      .filter(([i]) => kindOf(i) === 'document')
      .map(([i, body]) => [`/doc-${i}.pdf`, { type: 'application/pdf', body }] as const);
    files = await startFileServer(Object.fromEntries(served));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-e2e-mixed-'));
    for (const contact of CONTACTS) {
      await sim.admin.ok(`/contacts/${contact}/config`, { autoDeliver: true, autoRead: false });
    }
  }, 30_000);
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await sim?.stop();
    await files?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  const inbox = async (contact: string): Promise<ReceivedMessage[]> =>
    (await sim.admin.received(contact)).filter((m) => m.from.startsWith(PHONE));

  /** Request `i` of the burst: the kind cycles through text, location, contact, reply, reaction and media. */
  function requestOf(i: number, quoted: Record<string, string>): Request {
    const contact = CONTACTS[i % 2] as string;
    const chatId = `${contact}@c.us`;
    const key = `mixed-${i}`;
    const file = FILES.get(i);
    const data = file?.toString('base64');
    switch (kindOf(i)) {
      case 'text':
        return { action: 'send-text', body: { chatId, text: `burst ${i}` }, contact, key };
      case 'location':
        return { action: 'send-location', body: { chatId, latitude: i / 10, longitude: 1 }, contact, key };
      case 'contact':
        return {
          action: 'send-contact',
          body: { chatId, contactName: `Card ${i}`, contactNumber: `1555${i}` },
          contact,
          key,
        };
      case 'reply':
        return {
          action: 'reply',
          body: { chatId, quotedMessageId: quoted[contact], text: `reply ${i}` },
          contact,
          key,
        };
      case 'reaction':
        return {
          action: 'react',
          body: { chatId, messageId: quoted[contact], emoji: ['👍', '❤️', '😂'][i % 3] },
          contact,
          key,
        };
      case 'image':
        return { action: 'send-image', body: { chatId, data, mimetype: 'image/png' }, contact, key, file };
      case 'document': {
        const body = { chatId, url: `${files.base}/doc-${i}.pdf`, filename: `doc-${i}.pdf` };
        return { action: 'send-document', body, contact, key, file };
      }
      case 'audio':
        return { action: 'send-audio', body: { chatId, data, mimetype: 'audio/mpeg' }, contact, key, file };
    }
  }

  /** Sends request `i` with its key; resolves with the row, or null when the kill cut the request off. */
  async function sendOnce(gateway: GatewayProcess, i: number, request: Request): Promise<Message | null> {
    const res = await fetch(`${gateway.url}/api/sessions/${sessionId}/messages/${request.action}`, {
      method: 'POST',
      headers: {
        'x-api-key': fs.readFileSync(path.join(dataDir, '.api-key'), 'utf8').trim(),
        'content-type': 'application/json',
        'idempotency-key': request.key,
      },
      body: JSON.stringify(request.body),
    }).catch(() => null);
    if (res?.status !== 201) return null;
    const row = (await res.json()) as Message;
    answered.set(i, row);
    onAnswered?.();
    return row;
  }

  it('turns every request into exactly one message that reaches its contact', async () => {
    gateways.push(await spawnGateway(dataDir, { ...BURST_ENV, ...sim.gatewayEnv }));
    sessionId = await linkProcessSession(current(), sim, PHONE, 'mixed');
    // Each contact writes first, so replies and reactions have a message to point at.
    const quoted: Record<string, string> = {};
    for (const contact of CONTACTS) {
      const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${contact}/messages`, {
        to: PHONE,
        content: { type: 'text', text: `hello from ${contact}` },
      });
      quoted[contact] = id;
    }
    await waitFor(async () => {
      const rows = await current().request<{ messages: Message[] }>(
        'GET',
        `/api/sessions/${sessionId}/messages`,
      );
      return CONTACTS.every((c) => rows.body.messages.some((m) => m.waMessageId === quoted[c]));
    }, 15_000);

    const requests = Array.from({ length: BURST }, (_, i) => requestOf(i, quoted));
    const first = current();
    await Promise.all(Array.from({ length: 100 }, () => first.request('GET', `/api/sessions/${sessionId}`)));
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      first.child.kill('SIGKILL');
    };
    onAnswered = () => {
      if (answered.size >= KILL_AT_ANSWERED) kill();
    };
    await Promise.all([...FILES.keys()].map((i) => sendOnce(first, i, requests[i] as Request)));
    const burst = Promise.all(
      requests.map((request, i) => (FILES.has(i) ? null : sendOnce(first, i, request))),
    );
    const atKill = await waitFor(
      async () => {
        const state = { decrypted: (await inbox(CONTACTS[0] as string)).length, answered: answered.size };
        if (!killed && state.decrypted >= KILL_AFTER && answered.size < BURST) kill();
        return killed ? state : null;
      },
      60_000,
      10,
    );
    onAnswered = null;
    await exited(first.child);
    await burst;
    const cutOff = requests.map((_, i) => i).filter((i) => !answered.has(i));
    // Media answered but not at their contact yet: the dead host never sent them; the next one must, from the archive.
    const reached = new Set(
      [...(await inbox(CONTACTS[0] as string)), ...(await inbox(CONTACTS[1] as string))].map((m) => m.id),
    );
    const mediaLeft = [...FILES.keys()].filter((i) => !reached.has(answered.get(i)?.waMessageId ?? ''));
    console.info(
      `mixed burst: killed after contact A decrypted ${atKill.decrypted}; ${answered.size} of ${BURST} answered ` +
        `201, ${cutOff.length} cut off; ${mediaLeft.length} of ${FILES.size} media not sent yet`,
    );
    expect(cutOff.length).toBeGreaterThan(0);
    expect(mediaLeft.length).toBeGreaterThan(0);

    gateways.push(await spawnGateway(dataDir, { ...BURST_ENV, ...sim.gatewayEnv }));
    const seen: string[] = [];
    await readyAfterRestart(current(), sessionId, seen);
    expect(seen).not.toContain('qr_ready');
    // The client retries what the kill cut off, under the same keys; a request the dead process had stored is
    // answered with its first message (Idempotent-Replayed), not sent again.
    for (const i of cutOff) {
      const row = await waitFor(() => sendOnce(current(), i, requests[i] as Request), 90_000, 200);
      expect(row).toBeTruthy();
    }
    expect(answered.size).toBe(BURST);
    const ids = [...answered.values()].map((row) => row.waMessageId ?? '');
    expect(new Set(ids).size).toBe(BURST);

    // Every message settles sent (none failed, none pending) and reached its contact under its own id, once.
    const settled = await waitFor(
      async () => {
        const page = await current().request<{ messages: Message[] }>(
          'GET',
          `/api/sessions/${sessionId}/messages?limit=1000`,
        );
        const rows = page.body.messages.filter((m) => ids.includes(m.waMessageId ?? ''));
        return rows.length === BURST && rows.every((m) => m.status !== 'pending') ? rows : null;
      },
      90_000,
      500,
    );
    expect(settled.filter((m) => m.status === 'failed')).toEqual([]);
    const received = await waitFor(
      async () => {
        const all = [...(await inbox(CONTACTS[0] as string)), ...(await inbox(CONTACTS[1] as string))];
        const got = new Set(all.map((m) => m.id));
        return ids.every((id) => got.has(id)) ? all : null;
      },
      60_000,
      500,
    );
    const stray = received.filter((m) => !ids.includes(m.id));
    expect(stray).toEqual([]);
    for (const [i, row] of answered) {
      const copies = received.filter((m) => m.id === row.waMessageId);
      expect(copies.length).toBeGreaterThanOrEqual(1);
      // A copy seen twice is the same message sent again under its id after the kill, never a different one.
      expect(new Set(copies.map((m) => JSON.stringify(m.content))).size).toBe(1);
      const content = copies[0]?.content;
      expect(content?.kind).toBe(receivedKindOf(i));
      const { file } = requests[i] as Request;
      // Media counts once the contact downloaded, checked and decrypted the very bytes of this request.
      if (file)
        expect([i, content]).toEqual([
          i,
          expect.objectContaining({ sha256: sha256(file), size: file.length }),
        ]);
    }
    const { stats } = (await sim.admin.get<{ stats: Record<string, number> }>('/health')).body;
    const resent = ids.filter((id) => received.filter((m) => m.id === id).length > 1).length;
    console.info(
      `mixed burst: ${BURST} requests → ${BURST} messages, all sent; contacts hold ${received.length} copies ` +
        `(${resent} ids twice: sent again under the same id after the kill)`,
    );
    expect(stats.decryptFailures).toBe(0);
  }, 300_000);
});
