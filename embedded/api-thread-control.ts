/**
 * The messages between the gateway's main thread and its API thread (API_THREAD=true) over the worker's own channel:
 * what the thread is started with, that it listens (or why it could not), its drain and its shutdown. The host operations
 * travel on a MessagePort of their own (shared/adapters/api-thread/).
 */
import type { MessagePort } from 'node:worker_threads';
import { z } from 'zod';
import type { Env } from '#shared/config/env.js';

/** What the API thread starts with: the host thread's validated configuration and its end of the host port. */
export interface ApiThreadData {
  env: Env;
  version: string;
  hostPort: MessagePort;
}

export const FromApiThread = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('listening'), url: z.string() }),
  z.strictObject({ kind: z.literal('failed'), message: z.string() }),
  z.strictObject({ kind: z.literal('closed') }),
]);
export type FromApiThread = z.output<typeof FromApiThread>;

/** `drain`: the process begins its shutdown (readiness 503, writes refused); `close`: stop serving. */
export const ToApiThread = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('drain') }),
  z.strictObject({ kind: z.literal('close') }),
]);
export type ToApiThread = z.output<typeof ToApiThread>;
