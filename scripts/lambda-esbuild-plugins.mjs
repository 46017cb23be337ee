// esbuild plugins of the Lambda bundles: serverless.yml (custom.esbuild.plugins) and the bundle benchmark
// (tests/bench/lambda-bundles.mjs) load this same list, so the measured bundles are the deployed ones.
import path from 'node:path';

/**
 * zod's public API re-exports every error-message locale (about 255 KB of a 1 MB minified bundle); the gateway
 * only ever uses the default, English. zod's own imports of its locales index resolve to a module that re-exports
 * `en` alone. Nothing else changes: zod installs English as its default locale from `en.js` directly.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/(?:.*\/)?locales\/index\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
      const dir = path.dirname(path.resolve(args.resolveDir, args.path));
      return { path: path.join(dir, 'index.js'), namespace: 'zod-english-only', pluginData: { dir } };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(args.pluginData.dir, 'en.js'))};\n`,
      loader: 'js',
      resolveDir: args.pluginData.dir,
    }));
  },
};

export default [zodEnglishOnly];
