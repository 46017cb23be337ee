/**
 * `npm run demo` as a newcomer uses it: started on free ports and a temporary DATA_DIR, the block it prints is run
 * whole with `bash -e` from another folder (as pasted into another terminal). The block links a session with the
 * simulated phone and carries a text each way; the gateway's API and the simulator's admin API then show both.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { exited } from '#tests/helpers/gateway-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The part of scripts/demo-steps.mjs used here (plain JS without declarations). */
interface DemoStepsModule {
  BEGIN: string;
  END: string;
}

interface Message {
  direction: string;
  body: string;
  chatId: string;
}

/** Runs `script` with `bash -e` on its stdin, in `cwd`. */
function runBash(script: string, cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const bash = spawn('bash', ['-e'], {
      cwd,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    bash.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    bash.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    bash.once('error', reject);
    bash.once('exit', (code) => resolve({ code, out }));
    bash.stdin.end(script);
  });
}

describe('npm run demo', () => {
  let demo: ChildProcess;
  let dataDir: string;
  let output = '';

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-demo-'));
    demo = spawn(process.execPath, ['scripts/demo.mjs'], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '', SIM_PORT: '0', PORT: '0', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [demo.stdout, demo.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
    }
  });
  afterAll(async () => {
    if (demo && demo.exitCode === null && demo.signalCode === null) {
      const done = exited(demo);
      demo.kill('SIGTERM');
      const timer = setTimeout(() => demo.kill('SIGKILL'), 20_000);
      await done;
      clearTimeout(timer);
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('prints steps that, run whole with bash -e, link a session and carry a text each way', async () => {
    const { BEGIN, END } = (await import(path.join(ROOT, 'scripts/demo-steps.mjs'))) as DemoStepsModule;
    const block = await waitFor(() => {
      if (demo.exitCode !== null) throw new Error(`the demo exited (${demo.exitCode}):\n${output}`);
      const begin = output.indexOf(BEGIN);
      const end = output.indexOf(END, begin);
      return begin >= 0 && end > begin ? output.slice(begin, end + END.length) : null;
    }, 60_000);

    const run = await runBash(block, os.tmpdir());
    expect({ code: run.code, out: run.out }).toMatchObject({ code: 0 });
    expect(run.out).toContain('"status":"ready"');

    // What the block did, seen through the two APIs rather than its own output.
    const gatewayUrl = /^GW=(\S+);/m.exec(block)?.[1];
    const adminUrl = /; SIM=(\S+);/m.exec(block)?.[1];
    const key = fs.readFileSync(path.join(dataDir, '.api-key'), 'utf8').trim();
    const history = (await (
      await fetch(`${gatewayUrl}/api/sessions/${(/^session (\S+)$/m.exec(run.out) ?? [])[1]}/messages`, {
        headers: { 'x-api-key': key },
      })
    ).json()) as { messages: Message[] };
    expect(history.messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          direction: 'outgoing',
          chatId: '15550002222@c.us',
          body: expect.any(String),
        }),
        expect.objectContaining({
          direction: 'incoming',
          chatId: '15550002222@c.us',
          body: 'Hi Waygate, Alice here',
        }),
      ]),
    );
    const sent = history.messages.find((message) => message.direction === 'outgoing');
    const inbox = (await (await fetch(`${adminUrl}/contacts/15550002222/messages`)).json()) as {
      from: string;
      text: string;
    }[];
    expect(inbox).toEqual([
      expect.objectContaining({ from: '15550001111@s.whatsapp.net', text: sent?.body }),
    ]);
  }, 120_000);
});
