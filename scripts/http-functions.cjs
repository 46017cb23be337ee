/**
 * serverless.yml's HTTP functions, for its variable `${file(./scripts/http-functions.cjs):httpFunctions}`: osls
 * calls httpFunctions while it resolves the configuration, before any plugin or command runs, so `sls package`,
 * `sls offline` and `sls print` all see the functions generated from the route manifest
 * (functions/http-functions.ts). osls loads a variable file with require() and reads a .mjs one as text, hence
 * CommonJS.
 *
 * The generator is TypeScript: esbuild bundles it as it bundles the Lambdas (the `#functions/*` and `#shared/*`
 * imports resolved the same way), leaving the packages to node_modules, and the bundle is imported from a file
 * under node_modules/.cache so those packages resolve from it.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..');
const GENERATOR = path.join(ROOT, 'functions', 'http-functions.ts');
const WORK = path.join(ROOT, 'node_modules', '.cache', 'waygate', 'http-functions');

/** The generator's module: bundled, then imported from a file of its own (parallel runs never share one). */
async function loadGenerator() {
  const { outputFiles } = await esbuild.build({
    entryPoints: [GENERATOR],
    absWorkingDir: ROOT,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  fs.mkdirSync(WORK, { recursive: true });
  const file = fs.mkdtempSync(path.join(WORK, 'run-'));
  const bundle = path.join(file, 'http-functions.mjs');
  try {
    fs.writeFileSync(bundle, outputFiles[0].text);
    return await import(pathToFileURL(bundle).href);
  } finally {
    fs.rmSync(file, { recursive: true, force: true });
  }
}

/** Every resource group's function by name: handler, description, role, timeout, VPC and `httpApi` events. */
async function httpFunctions() {
  const generator = await loadGenerator();
  return generator.httpFunctions();
}

module.exports = { httpFunctions };
