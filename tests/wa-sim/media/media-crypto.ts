/**
 * Media encryption as WhatsApp does it, for simulated contacts. Sending uses Baileys' own `encryptedStream`: a
 * random 32-byte media key, HKDF-expanded (`WhatsApp <Type> Keys`) into IV, cipher key and MAC key; AES-256-CBC,
 * then the first 10 bytes of HMAC-SHA256(iv ‖ ciphertext) appended; `fileSha256` of the plaintext and
 * `fileEncSha256` of what is uploaded. Receiving checks what a client checks before showing the media:
 * `fileEncSha256` of the blob, the MAC, the padding, and `fileSha256` of the plaintext.
 */
import { createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { encryptedStream, getMediaKeys, type MediaType } from '@whiskeysockets/baileys';

/** The kinds of media message a contact sends and decodes; a sticker is keyed as an image. */
export type MediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker';

/** An encrypted upload and the fields its message carries. */
export interface EncryptedMedia {
  readonly mediaKey: Buffer;
  readonly fileSha256: Buffer;
  readonly fileEncSha256: Buffer;
  readonly fileLength: number;
  /** Ciphertext followed by the 10-byte MAC: what goes to the media host. */
  readonly blob: Buffer;
}

/** What a media message says about its blob (the fields a client downloads and checks it with). */
export interface MediaKeys {
  readonly mediaKey?: Uint8Array | null;
  readonly fileSha256?: Uint8Array | null;
  readonly fileEncSha256?: Uint8Array | null;
}

/** Where a received media message's blob is and how to open it: the fields of its media proto. */
export interface MediaRef extends MediaKeys {
  readonly kind: MediaKind;
  readonly mimetype: string;
  readonly directPath?: string | null;
  readonly url?: string | null;
}

const MAC_LENGTH = 10;

/** The blob failed a check a client makes; `reason` says which. */
export class MediaIntegrityError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'MediaIntegrityError';
  }
}

/** The upload type of a kind (`MEDIA_PATH_MAP`: stickers go up as images). */
export function uploadTypeOf(kind: MediaKind): string {
  return kind === 'sticker' ? 'image' : kind;
}

/** Encrypts `plaintext` as a `kind` message's media with Baileys' `encryptedStream` (it writes a temp file). */
export async function encryptMedia(plaintext: Buffer, kind: MediaKind): Promise<EncryptedMedia> {
  const encrypted = await encryptedStream(plaintext, kind satisfies MediaType);
  try {
    const { mediaKey, fileSha256, fileEncSha256, fileLength } = encrypted;
    return { mediaKey, fileSha256, fileEncSha256, fileLength, blob: await readFile(encrypted.encFilePath) };
  } finally {
    await rm(encrypted.encFilePath, { force: true });
  }
}

/** Checks and decrypts a downloaded `blob` with the message's keys; throws `MediaIntegrityError` on any failure. */
export async function decryptMedia(blob: Buffer, kind: MediaKind, keys: MediaKeys): Promise<Buffer> {
  if (!keys.mediaKey?.length) throw new MediaIntegrityError('the message carries no mediaKey');
  if (keys.fileEncSha256?.length && !same(sha256(blob), keys.fileEncSha256))
    throw new MediaIntegrityError('fileEncSha256 does not match the downloaded blob');
  if (blob.length < MAC_LENGTH + 16) throw new MediaIntegrityError('the blob is too short');
  const { iv, cipherKey, macKey } = await getMediaKeys(keys.mediaKey, kind satisfies MediaType);
  if (!macKey) throw new MediaIntegrityError('no MAC key derived');
  const ciphertext = blob.subarray(0, blob.length - MAC_LENGTH);
  const mac = createHmac('sha256', macKey).update(iv).update(ciphertext).digest().subarray(0, MAC_LENGTH);
  if (!same(mac, blob.subarray(blob.length - MAC_LENGTH)))
    throw new MediaIntegrityError('the MAC does not match');
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-cbc', cipherKey, iv);
    plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new MediaIntegrityError('AES-CBC decryption failed (bad padding)');
  }
  if (keys.fileSha256?.length && !same(sha256(plaintext), keys.fileSha256))
    throw new MediaIntegrityError('fileSha256 does not match the decrypted plaintext');
  return plaintext;
}

/** SHA-256 of `bytes`. */
export function sha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes).digest();
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
