// Bundles the host entry points (our code only; packages stay external) so `npm start` runs plain JavaScript.
import { build } from 'esbuild';

await build({
  entryPoints: ['host/main.ts', 'host/migrate.ts'],
  outdir: 'dist/host',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
