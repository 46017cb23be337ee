// `npm start`: the embedded gateway (dist/embedded/main.js), in this process. dist/ is rebuilt first only when a
// source changed since the last build (build-manifest.mjs, checked here without loading esbuild); the build runs as
// a process of its own, so the gateway never holds esbuild.
import { buildIsCurrent } from './build-manifest.mjs';

if (!buildIsCurrent()) {
  const build = process
    .getBuiltinModule('node:child_process')
    .spawnSync(process.execPath, [new URL('build.mjs', import.meta.url).pathname], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import('../dist/embedded/main.js');
