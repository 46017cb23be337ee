/**
 * Global setup and teardown of the jest project `api-aws` (every API file with the functions in-process on the aws
 * adapters, inprocess-functions.ts): only the emulators, shared with api-offline (aws-emulators.mjs).
 */
import { acquireEmulators, releaseEmulators } from './aws-emulators.mjs';

export default async function globalSetup() {
  await acquireEmulators();
}

export async function teardown() {
  await releaseEmulators();
}
