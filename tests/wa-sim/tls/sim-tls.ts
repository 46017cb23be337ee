/**
 * The simulator's test-only TLS material (see README.md here): the media host's key and certificate, and the CA
 * that signed it. A process talking to the media host (Baileys' upload and download) trusts that CA through Node's
 * standard `NODE_EXTRA_CA_CERTS`, which Node reads only at startup: `npm test` and `npm run sim` set it, and test
 * helpers pass it on to the processes they spawn. Nothing in production code changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';

/** Absolute path of the test CA certificate (the value for `NODE_EXTRA_CA_CERTS`). */
export const SIM_CA_PATH = path.join(import.meta.dirname, 'ca.pem');

/** The media host's private key and certificate (for 127.0.0.1, ::1 and localhost). */
export function mediaHostCredentials(): { key: Buffer; cert: Buffer } {
  return {
    key: fs.readFileSync(path.join(import.meta.dirname, 'server-key.pem')),
    cert: fs.readFileSync(path.join(import.meta.dirname, 'server.pem')),
  };
}

/**
 * `env` plus `NODE_EXTRA_CA_CERTS` naming the test CA, for a child process that runs Baileys against the simulator
 * (one already set is kept).
 */
export function withSimCa(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, NODE_EXTRA_CA_CERTS: env.NODE_EXTRA_CA_CERTS || SIM_CA_PATH };
}

/** Whether this process trusts the test CA (it was started with `NODE_EXTRA_CA_CERTS` naming it). */
export function simCaTrusted(): boolean {
  // Node ≥ 22.15 lists the CAs its TLS clients trust by default; @types/node 20 does not declare it yet.
  const api = tls as unknown as { getCACertificates(type: 'default'): string[] };
  const ours = body(fs.readFileSync(SIM_CA_PATH, 'utf8'));
  return api.getCACertificates('default').some((pem) => body(pem) === ours);
}

/** Throws a clear error when this process cannot reach the media host (its TLS clients do not trust the test CA). */
export function assertSimCaTrusted(): void {
  if (simCaTrusted()) return;
  throw new Error(
    'this process does not trust the simulator media host: start it with ' +
      'NODE_EXTRA_CA_CERTS=tests/wa-sim/tls/ca.pem (npm test and npm run sim set it)',
  );
}

function body(pem: string): string {
  return pem.replace(/-----[A-Z ]+-----|\s/g, '');
}
