/**
 * Behaviour every MediaStorage adapter must show: keys it makes itself from the session and message ids, with the
 * extension of the allow-listed type (anything else stored as an opaque `.bin`); bytes or a stream stored whole and
 * read back the same; the size cap (413, nothing kept, a stream not read past it); keys of any other shape refused
 * (400), so nothing outside the archive is ever read or removed; delete and delete-by-session; and a presigned URL
 * where the adapter has one.
 */
import { randomUUID } from 'node:crypto';
import type { MediaStorage, MediaUpload } from '#shared/ports/media-storage.port.js';

export interface OpenedMediaStorage {
  storage: MediaStorage;
  close(): Promise<void>;
}

/** The cap every contract run opens its storage with. */
export const CONTRACT_MAX_BYTES = 1024;

const bytes = (...values: number[]) => new Uint8Array(values);

/** Chunks of `size` bytes each (value = index), counting how many were taken. */
function chunked(count: number, size: number): { data: AsyncIterable<Uint8Array>; taken: () => number } {
  let taken = 0;
  async function* generate() {
    for (let i = 0; i < count; i++) {
      taken += 1;
      yield new Uint8Array(size).fill(i);
    }
  }
  return { data: generate(), taken: () => taken };
}

const invalidKey = { status: 400, code: 'MEDIA_KEY_INVALID' };

/**
 * `presigns`: whether the adapter hands out presigned URLs (S3). The route serves bytes from one that does not, so
 * the others must not pretend to.
 */
export function mediaStorageContract(
  name: string,
  open: () => Promise<OpenedMediaStorage>,
  { presigns }: { presigns: boolean },
): void {
  describe(`MediaStorage contract: ${name}`, () => {
    let storage: MediaStorage;
    let close: () => Promise<void>;
    let s1: string;
    let s2: string;
    const upload = (over: Partial<MediaUpload> = {}): MediaUpload => ({
      sessionId: s1,
      messageId: 'IMG-1',
      mimetype: 'image/jpeg',
      data: bytes(1, 2, 3),
      ...over,
    });

    beforeEach(async () => {
      ({ storage, close } = await open());
      [s1, s2] = [randomUUID(), randomUUID()];
    });
    afterEach(async () => {
      await close();
    });

    it('stores bytes under <session>/<message>.<extension> and reads them back with their type', async () => {
      const stored = await storage.put(upload());
      expect(stored).toEqual({ path: `${s1}/IMG-1.jpg`, mimetype: 'image/jpeg', size: 3 });
      expect(await storage.stat(stored.path)).toEqual({
        size: 3,
        mimetype: 'image/jpeg',
        fileName: 'IMG-1.jpg',
      });
      const file = await storage.get(stored.path);
      expect(file).toMatchObject({ size: 3, mimetype: 'image/jpeg', fileName: 'IMG-1.jpg' });
      expect([...(file?.bytes ?? [])]).toEqual([1, 2, 3]);
      expect(storage.maxBytes).toBe(CONTRACT_MAX_BYTES);
    });

    it('stores a stream of chunks whole, and an empty file', async () => {
      const stream = chunked(4, 100);
      const stored = await storage.put(
        upload({ messageId: 'DOC-1', mimetype: 'application/pdf', ...stream }),
      );
      expect(stored).toEqual({ path: `${s1}/DOC-1.pdf`, mimetype: 'application/pdf', size: 400 });
      const file = await storage.get(stored.path);
      expect(file?.bytes.byteLength).toBe(400);
      expect([file?.bytes[0], file?.bytes[150], file?.bytes[399]]).toEqual([0, 1, 3]);
      const empty = await storage.put(upload({ messageId: 'EMPTY', data: new Uint8Array() }));
      expect((await storage.get(empty.path))?.size).toBe(0);
    });

    it('names types by the allow-map: parameters and case dropped, active or unknown types opaque', async () => {
      const cases: Array<[string, string, string]> = [
        ['audio/ogg; codecs=opus', 'ogg', 'audio/ogg'],
        ['IMAGE/PNG', 'png', 'image/png'],
        ['text/html', 'bin', 'application/octet-stream'],
        ['image/svg+xml', 'bin', 'application/octet-stream'],
        ['application/javascript', 'bin', 'application/octet-stream'],
        ['', 'bin', 'application/octet-stream'],
      ];
      for (const [mimetype, extension, stored] of cases) {
        const result = await storage.put(upload({ messageId: `M-${extension}`, mimetype }));
        expect([mimetype, result.path, result.mimetype]).toEqual([
          mimetype,
          `${s1}/M-${extension}.${extension}`,
          stored,
        ]);
        expect((await storage.stat(result.path))?.mimetype).toBe(stored);
      }
    });

    it('storing the same message again replaces its file', async () => {
      const first = await storage.put(upload());
      const second = await storage.put(upload({ data: bytes(9, 9) }));
      expect(second.path).toBe(first.path);
      expect([...((await storage.get(first.path))?.bytes ?? [])]).toEqual([9, 9]);
    });

    it('refuses more than maxBytes with 413 MEDIA_TOO_LARGE and keeps nothing; exactly maxBytes is kept', async () => {
      await expect(
        storage.put(upload({ data: new Uint8Array(CONTRACT_MAX_BYTES + 1) })),
      ).rejects.toMatchObject({
        status: 413,
        code: 'MEDIA_TOO_LARGE',
      });
      expect(await storage.stat(`${s1}/IMG-1.jpg`)).toBeNull();
      const stream = chunked(100, 100);
      await expect(storage.put(upload({ messageId: 'BIG', ...stream }))).rejects.toMatchObject({
        status: 413,
      });
      // Refused once past the cap: the 11th chunk of 100 bytes crosses 1024, nothing after it is read.
      expect(stream.taken()).toBe(11);
      expect(await storage.stat(`${s1}/BIG.jpg`)).toBeNull();
      const full = await storage.put(upload({ messageId: 'FULL', data: new Uint8Array(CONTRACT_MAX_BYTES) }));
      expect(full.size).toBe(CONTRACT_MAX_BYTES);
    });

    it('a refused upload leaves the file stored before it as it was', async () => {
      const kept = await storage.put(upload());
      await expect(storage.put(upload({ data: new Uint8Array(CONTRACT_MAX_BYTES + 1) }))).rejects.toThrow();
      expect([...((await storage.get(kept.path))?.bytes ?? [])]).toEqual([1, 2, 3]);
    });

    it('refuses ids that cannot be part of a key (400 MEDIA_KEY_INVALID)', async () => {
      const bad: Array<Partial<MediaUpload>> = [
        { messageId: '../escape' },
        { messageId: 'a/b' },
        { messageId: 'a.b' },
        { messageId: '' },
        { messageId: 'x'.repeat(129) },
        { sessionId: 'not-a-uuid' },
        { sessionId: '..' },
        { sessionId: `${s1}/..` },
      ];
      for (const over of bad) await expect(storage.put(upload(over))).rejects.toMatchObject(invalidKey);
    });

    it('refuses keys of any other shape on every read and delete, path traversal included', async () => {
      await storage.put(upload());
      const keys = [
        '../secret.jpg',
        '/etc/passwd',
        `${s1}/../${s2}/IMG-1.jpg`,
        `${s1}/../../secret.jpg`,
        `${s1}/sub/IMG-1.jpg`,
        `${s1}/IMG-1.jpg/`,
        `${s1}\\IMG-1.jpg`,
        `${s1}/IMG-1`,
        `${s1}/.IMG-1.jpg.tmp`,
        `./${s1}/IMG-1.jpg`,
        '',
      ];
      for (const key of keys) {
        await expect(storage.stat(key)).rejects.toMatchObject(invalidKey);
        await expect(storage.get(key)).rejects.toMatchObject(invalidKey);
        await expect(storage.delete(key)).rejects.toMatchObject(invalidKey);
      }
      for (const id of ['..', '', `${s1}/x`, '*']) {
        await expect(storage.deleteBySession(id)).rejects.toMatchObject(invalidKey);
      }
      expect(await storage.stat(`${s1}/IMG-1.jpg`)).not.toBeNull();
    });

    it('answers null for a well-formed key with nothing stored', async () => {
      expect(await storage.stat(`${s1}/NONE.jpg`)).toBeNull();
      expect(await storage.get(`${s1}/NONE.jpg`)).toBeNull();
    });

    it('deletes one file; deleting what is not there is no error', async () => {
      const a = await storage.put(upload({ messageId: 'A' }));
      const b = await storage.put(upload({ messageId: 'B' }));
      await storage.delete(a.path);
      await storage.delete(a.path);
      expect(await storage.get(a.path)).toBeNull();
      expect(await storage.stat(b.path)).not.toBeNull();
    });

    it("deletes every file of a session and nothing of another's", async () => {
      const own = [
        await storage.put(upload({ messageId: 'A' })),
        await storage.put(upload({ messageId: 'B', mimetype: 'video/mp4' })),
      ];
      const other = await storage.put(upload({ sessionId: s2, messageId: 'A' }));
      expect(await storage.deleteBySession(s1)).toBe(2);
      for (const stored of own) expect(await storage.stat(stored.path)).toBeNull();
      expect(await storage.stat(other.path)).not.toBeNull();
      expect(await storage.deleteBySession(s1)).toBe(0);
      expect(await storage.deleteBySession(randomUUID())).toBe(0);
      const again = await storage.put(upload({ messageId: 'A' }));
      expect(await storage.stat(again.path)).not.toBeNull();
    });

    if (!presigns) {
      it('has no presigned URLs (the route serves its files itself)', () => {
        expect(storage.presignedUrl).toBeUndefined();
      });
      return;
    }

    it('a presigned URL serves the file with the headers asked for; a bad key is refused', async () => {
      const stored = await storage.put(upload({ data: bytes(7, 8, 9) }));
      const options = {
        ttlSeconds: 60,
        contentType: 'image/jpeg',
        contentDisposition: 'attachment; filename="IMG-1.jpg"',
      };
      const presign = storage.presignedUrl?.bind(storage);
      if (!presign) throw new Error(`${name} has no presignedUrl`);
      const response = await fetch(await presign(stored.path, options));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="IMG-1.jpg"');
      expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([7, 8, 9]);
      await expect(presign('../x.jpg', options)).rejects.toMatchObject(invalidKey);
    });
  });
}
