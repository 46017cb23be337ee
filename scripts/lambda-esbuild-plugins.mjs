// esbuild plugins of the Lambda bundles: serverless.yml (custom.esbuild.plugins) and the bundle benchmark
// (tests/bench/lambda-bundles.mjs) load this same list, so the measured bundles are the deployed ones.
import path from 'node:path';
import { withoutFacade } from './build-plugins.mjs';

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

/**
 * node:http read without its ESM facade (build-plugins.mjs): building the facade reads every export, and three of
 * them load undici (WebSocket, CloseEvent, MessageEvent), classes no function uses, on every cold start; the AWS SDK's
 * HTTP handler and the error responses import node:http. Only node:http: bundled packages import getters of other
 * builtins by name (node:fs `promises`, node:crypto `getRandomValues`), which the plugin refuses at build time. The
 * exports are node:http's plain values on the building Node, the Lambda runtime's major (serverless.yml `runtime`).
 */
const httpWithoutFacade = withoutFacade(['http']);

export default [zodEnglishOnly, httpWithoutFacade];
