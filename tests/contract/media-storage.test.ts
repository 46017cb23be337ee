/** The MediaStorage contract against the in-memory fake and the file system adapter (a fresh temp folder each). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileSystemMediaStorage } from '#shared/adapters/filesystem/filesystem-media-storage.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { CONTRACT_MAX_BYTES, mediaStorageContract } from './media-storage.contract.js';

mediaStorageContract(
  'memory',
  async () => {
    const storage = new MemoryMediaStorage(CONTRACT_MAX_BYTES);
    return { storage, close: () => storage.close() };
  },
  { presigns: false },
);

mediaStorageContract(
  'filesystem',
  async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-media-'));
    const storage = new FileSystemMediaStorage({
      root: path.join(root, 'media'),
      maxBytes: CONTRACT_MAX_BYTES,
    });
    return {
      storage,
      close: async () => {
        await storage.close();
        fs.rmSync(root, { recursive: true, force: true });
      },
    };
  },
  { presigns: false },
);
