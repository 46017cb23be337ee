/**
 * Typed access to scripts/s3-emulator.mjs from the TypeScript tests (the script is plain JS without declarations,
 * so it is imported dynamically and given its shape here).
 */
import { fileURLToPath } from 'node:url';

/** A running S3 emulator (s3rver). */
export interface S3Emulator {
  endpoint: string;
  stop(): Promise<void>;
}

interface S3EmulatorScript {
  startS3Emulator(options: { port: number }): Promise<S3Emulator>;
  ensureBucket(options: { endpoint: string; region?: string; bucket: string }): Promise<string>;
}

const script = () =>
  import(
    fileURLToPath(new URL('../../scripts/s3-emulator.mjs', import.meta.url))
  ) as Promise<S3EmulatorScript>;

/** Starts s3rver on a free port, files in a temporary folder that `stop()` removes. */
export async function startS3Emulator(): Promise<S3Emulator> {
  return (await script()).startS3Emulator({ port: 0 });
}

/** Creates `bucket` on the emulator unless it exists. */
export async function ensureBucket(endpoint: string, bucket: string): Promise<void> {
  await (await script()).ensureBucket({ endpoint, bucket });
}
