/**
 * The SQLite addon the gateway loads on this Node. Addons that wrap objects with the legacy `node::ObjectWrap`
 * (better-sqlite3 12 and older) abort the process on Node ≥ 24.19 when the garbage collector frees a statement
 * outside JavaScript: `Assertion failed: (env) != nullptr` in node::RemoveEnvironmentCleanupHook, called from
 * Statement::~Statement (nodejs/node#65446). When that happens depends on GC timing (under load, the contract
 * suite aborted on its first file), so this checks the cause instead: the addon file the process actually maps must
 * not call node::RemoveEnvironmentCleanupHook, as a Node-API addon (better-sqlite3 13) does not.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Opens a database, runs a statement, and prints the path of the better-sqlite3 addon this process mapped. */
const LOADED_ADDON = `
const Database = require('better-sqlite3');
new Database(':memory:').prepare('select 1').get();
const maps = require('fs').readFileSync('/proc/self/maps', 'utf8').split('\\n');
console.log(maps.map((line) => line.split(/\\s+/)[5]).find((file) => /better[-_]sqlite3.*\\.node$/.test(file ?? '')));
`;

describe('the better-sqlite3 addon on this Node', () => {
  it('is a Node-API build that never calls node::RemoveEnvironmentCleanupHook', () => {
    const run = spawnSync(process.execPath, ['-e', LOADED_ADDON], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const addon = run.stdout.trim();
    expect(addon).toMatch(/\.node$/);
    const binary = fs.readFileSync(addon).toString('latin1');
    expect({
      addon,
      nodeApi: binary.includes('napi_'),
      callsRemoveEnvironmentCleanupHook: binary.includes('RemoveEnvironmentCleanupHook'),
    }).toEqual({ addon, nodeApi: true, callsRemoveEnvironmentCleanupHook: false });
  });
});
