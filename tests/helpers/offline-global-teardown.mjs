/** Global teardown of the jest project `api-aws`: stops the emulators its global setup started. */
export default async function globalTeardown() {
  await globalThis.__waygateApiAwsEmulators?.stop();
  globalThis.__waygateApiAwsEmulators = undefined;
}
