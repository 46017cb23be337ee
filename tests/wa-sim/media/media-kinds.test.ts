/**
 * Media through the simulator's own media host, encrypted as WhatsApp does it, with the real Baileys client on
 * both paths: `sock.sendMessage` runs Baileys' upload (media_conn, HTTPS POST) and the contact downloads, checks and
 * decrypts what it received; a contact's media reaches Baileys, whose `downloadMediaMessage` fetches (HTTPS GET,
 * byte ranges too) and decrypts it. Needs NODE_EXTRA_CA_CERTS=tests/wa-sim/tls/ca.pem (npm test sets it).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { jest } from '@jest/globals';
import * as baileys from '@whiskeysockets/baileys';
import type { LinkedClient } from '#tests/wa-sim/harness/client.js';
import type { MessageLog } from '#tests/wa-sim/harness/messages.js';
import { type LinkedSim, startLinkedSim, type TestSim } from '#tests/wa-sim/harness/test-sim.js';
import { assertSimCaTrusted } from '#tests/wa-sim/tls/sim-tls.js';
import { pnJid as jid } from '#tests/wa-sim/transport/binary.js';

jest.setTimeout(30_000);

const [PHONE, ALICE, BOB] = ['15550012001', '15550013001', '15550013002'];
const { downloadMediaMessage } = baileys;
const hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
/** Bytes that are not a multiple of the AES block, so padding is exercised. */
const bytesOf = (size: number): Buffer => randomBytes(size);

let sim: TestSim;
let client: LinkedClient;
let log: MessageLog;
let linked: LinkedSim;

beforeAll(async () => {
  assertSimCaTrusted();
  linked = await startLinkedSim(PHONE, [ALICE, BOB]);
  ({ sim, client, log } = linked);
});

afterAll(() => linked?.stop());

const receivedAt = (number: string, id: string) => sim.admin.receivedOne(number, id);

/** The account sends `content` with `sock.sendMessage` (Baileys' real upload); resolves with Alice's record. */
async function aliceGets(content: baileys.AnyMessageContent, options?: baileys.MiscMessageGenerationOptions) {
  const sent = await client.sock.sendMessage(jid(ALICE), content, options);
  return receivedAt(ALICE, sent?.key.id ?? '');
}

/** Contact `number` sends `content` to the account; resolves with Baileys' upsert of it. */
async function contactSends(number: string, content: Record<string, unknown>): Promise<baileys.WAMessage> {
  const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${number}/messages`, { to: PHONE, content });
  return log.upserted(id);
}

describe('the account sends, a contact opens', () => {
  it('an image with a caption, uploaded to the host media_conn names', async () => {
    const image = bytesOf(5_001);
    const record = await aliceGets({ image, caption: 'the view', mimetype: 'image/png' });
    expect(record).toMatchObject({ type: 'image', text: 'the view' });
    expect(record.content).toEqual({
      kind: 'image',
      mimetype: 'image/png',
      caption: 'the view',
      sha256: hex(image),
      size: image.length,
    });
    expect(client.sock.getMediaHost()).toBe(new URL(sim.running.mediaUrl).host);
    const media = await sim.admin.media(ALICE, record.id);
    expect(media).toEqual({ bytes: image, mimetype: 'image/png', sha256: hex(image) });
  });

  it('a voice note', async () => {
    const voice = bytesOf(3_333);
    const mimetype = 'audio/ogg; codecs=opus';
    const record = await aliceGets({ audio: voice, ptt: true, seconds: 3, mimetype });
    expect(record.content).toEqual({
      kind: 'audio',
      mimetype,
      ptt: true,
      seconds: 3,
      sha256: hex(voice),
      size: voice.length,
    });
    expect((await sim.admin.media(ALICE, record.id)).bytes).toEqual(voice);
  });

  it('a document with its file name, a sticker and a video', async () => {
    const pdf = bytesOf(20_000);
    const document = await aliceGets({ document: pdf, mimetype: 'application/pdf', fileName: 'q3.pdf' });
    expect(document.content).toEqual({
      kind: 'document',
      mimetype: 'application/pdf',
      fileName: 'q3.pdf',
      sha256: hex(pdf),
      size: pdf.length,
    });
    const webp = bytesOf(900);
    const sticker = await aliceGets({ sticker: webp });
    expect(sticker.content).toEqual({
      kind: 'sticker',
      mimetype: 'image/webp',
      sha256: hex(webp),
      size: 900,
    });
    const mp4 = bytesOf(4_096);
    const video = await aliceGets({ video: mp4, caption: 'clip', seconds: 2, jpegThumbnail: '' });
    expect(video.content).toEqual({
      kind: 'video',
      mimetype: 'video/mp4',
      caption: 'clip',
      seconds: 2,
      sha256: hex(mp4),
      size: mp4.length,
    });
  });

  it('a reply with an image, and an image in a group', async () => {
    const quoted = await aliceGets({ text: 'send me the photo' });
    const photo = bytesOf(1_234);
    const quotedMessage = {
      key: { remoteJid: jid(ALICE), fromMe: true, id: quoted.id },
      message: { conversation: 'x' },
    };
    const reply = await aliceGets({ image: photo }, { quoted: quotedMessage });
    expect(reply.content).toMatchObject({ kind: 'image', quotedId: quoted.id, sha256: hex(photo) });
    const group = (await client.sock.groupCreate('Media', [jid(ALICE), jid(BOB)])).id;
    const sent = await client.sock.sendMessage(group, { image: photo, caption: 'for all' });
    const [alices, bobs] = await Promise.all(
      [ALICE, BOB].map((number) => receivedAt(number, sent?.key.id ?? '')),
    );
    expect(alices).toMatchObject({
      group,
      content: { kind: 'image', caption: 'for all', sha256: hex(photo) },
    });
    expect(bobs?.content).toEqual(alices?.content);
    expect((await sim.admin.media(BOB, sent?.key.id ?? '')).bytes).toEqual(photo);
  });

  it('shows a tampered blob as a decryptError and serves no bytes for it', async () => {
    // The upload goes through Baileys' own uploader, but the encrypted file is altered first: the host stores
    // what it was given (its hash checks the altered bytes), the message keeps the original hashes.
    const upload: baileys.WAMediaUploadFunction = async (encFilePath, options) => {
      const blob = await fs.readFile(encFilePath);
      blob[20] = (blob[20] ?? 0) ^ 0xff;
      await fs.writeFile(encFilePath, blob);
      const fileEncSha256B64 = createHash('sha256').update(blob).digest('base64');
      return client.sock.waUploadToServer(encFilePath, { ...options, fileEncSha256B64 });
    };
    const options = { upload } as baileys.MiscMessageGenerationOptions;
    const record = await aliceGets({ image: bytesOf(777), mimetype: 'image/jpeg' }, options);
    expect(record.content).toEqual({ kind: 'image', mimetype: 'image/jpeg', mediaError: 'decryptError' });
    const reply = await fetch(`${sim.running.adminUrl}/contacts/${ALICE}/messages/${record.id}/media`);
    expect(reply.status).toBe(422);
    expect(await reply.json()).toEqual({ error: 'fileEncSha256 does not match the downloaded blob' });
  });

  it('answers 404 for the media of an unknown or non-media message', async () => {
    const text = await aliceGets({ text: 'no media here' });
    const of = (id: string) => fetch(`${sim.running.adminUrl}/contacts/${ALICE}/messages/${id}/media`);
    const notMedia = await of(text.id);
    expect(notMedia.status).toBe(404);
    expect(await notMedia.json()).toEqual({ error: `${text.id} is a text, not a media message` });
    expect((await of('NOPE')).status).toBe(404);
    expect((await fetch(`${sim.running.adminUrl}/contacts/19999999999/messages/x/media`)).status).toBe(404);
  });
});

describe('a contact sends, Baileys downloads', () => {
  it('an image with a caption, whole and by byte range', async () => {
    const image = bytesOf(70_001);
    const data = image.toString('base64');
    const message = await contactSends(ALICE, {
      type: 'image',
      data,
      mimetype: 'image/png',
      caption: 'look',
    });
    expect(message.message?.imageMessage).toMatchObject({
      mimetype: 'image/png',
      caption: 'look',
      url: expect.stringMatching(new RegExp(`^${sim.running.mediaUrl}/v/t62\\.7118-24/`)),
      directPath: expect.stringMatching(/^\/v\/t62\.7118-24\/\d+_\d+_n\.enc\?ccb=11-4&oh=01_/),
    });
    expect(Number(message.message?.imageMessage?.fileLength)).toBe(image.length);
    expect(await downloadMediaMessage(message, 'buffer', {})).toEqual(image);
    const part = await downloadMediaMessage(message, 'buffer', { startByte: 1_000, endByte: 40_000 });
    expect(part).toEqual(image.subarray(1_000, 40_000));
  });

  it('a document, a voice note, a sticker and a video', async () => {
    const pdf = bytesOf(10_000);
    const document = await contactSends(ALICE, {
      type: 'document',
      data: pdf.toString('base64'),
      mimetype: 'application/pdf',
      fileName: 'invoice.pdf',
    });
    expect(document.message?.documentMessage).toMatchObject({
      fileName: 'invoice.pdf',
      mimetype: 'application/pdf',
    });
    expect(await downloadMediaMessage(document, 'buffer', {})).toEqual(pdf);
    const voice = bytesOf(2_000);
    const audio = await contactSends(BOB, {
      type: 'audio',
      data: voice.toString('base64'),
      ptt: true,
      seconds: 4,
    });
    expect(audio.message?.audioMessage).toMatchObject({
      ptt: true,
      seconds: 4,
      mimetype: 'audio/ogg; codecs=opus',
    });
    expect(await downloadMediaMessage(audio, 'buffer', {})).toEqual(voice);
    const webp = bytesOf(512);
    const sticker = await contactSends(BOB, { type: 'sticker', data: webp.toString('base64') });
    expect(await downloadMediaMessage(sticker, 'buffer', {})).toEqual(webp);
    const mp4 = bytesOf(3_000);
    const video = await contactSends(BOB, { type: 'video', data: mp4.toString('base64'), gif: true });
    expect(video.message?.videoMessage).toMatchObject({ gifPlayback: true, mimetype: 'video/mp4' });
    expect(await downloadMediaMessage(video, 'buffer', {})).toEqual(mp4);
    const sent = await sim.admin.sent(BOB);
    expect(sent.map((m) => m.kind)).toEqual(['audio', 'sticker', 'video']);
  });

  it('to a group', async () => {
    const group = (await client.sock.groupCreate('Contact media', [jid(ALICE)])).id;
    const photo = bytesOf(3_210);
    const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${ALICE}/messages`, {
      to: group,
      content: { type: 'image', data: photo.toString('base64'), caption: 'group pic' },
    });
    const message = await log.upserted(id);
    expect(message.key).toMatchObject({ remoteJid: group, participant: jid(ALICE) });
    expect(await downloadMediaMessage(message, 'buffer', {})).toEqual(photo);
  });

  it('answers 400 for media data that is not base64, empty or over 16 MiB', async () => {
    const post = (content: Record<string, unknown>) =>
      sim.admin.post<{ error: string }>(`/contacts/${ALICE}/messages`, { to: PHONE, content });
    expect(await post({ type: 'image', data: 'not base64!' })).toEqual({
      status: 400,
      body: { error: 'content.data: data is standard base64' },
    });
    expect((await post({ type: 'image', data: '' })).status).toBe(400);
    expect((await post({ type: 'image', data: 'AAAA', mimetype: 'jpeg' })).status).toBe(400);
    const huge = await post({ type: 'document', data: 'A'.repeat(16 * 1024 * 1024 + 4) });
    expect(huge).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/^content\.data: data is at most 16777216 characters/) },
    });
  });
});
