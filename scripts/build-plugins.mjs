// esbuild plugins of the gateway's bundle (scripts/build.mjs): what keeps a start from loading what it never uses.
import { builtinModules, createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The packages every start loads, bundled into dist/ (the others stay in node_modules). Node resolves, reads and
 * instantiates each file of a package on its own: zod's 95 files, pino's and prom-client's with @opentelemetry/api
 * (prom-client's process metrics need it) came to about 200 modules and a fifth of a start. @middy/util also imports
 * node:http, which only inside the bundle can go through `builtinsWithoutFacade`. What a start does not load stays
 * out: the native SQLite driver, Baileys and libsignal (the first session loads them), the AWS SDK (aws mode), qrcode.
 */
export const START_PACKAGES = [
  '@middy/core',
  '@middy/util',
  'zod',
  'prom-client',
  '@opentelemetry/api',
  'tdigest',
  'bintrees',
  'pino',
  'pino-std-serializers',
  '@pinojs/redact',
  'sonic-boom',
  'thread-stream',
  'atomic-sleep',
  'on-exit-leak-free',
  'quick-format-unescaped',
  'safe-stable-stringify',
];

/**
 * CommonJS packages bundled into ESM call `require` for Node's builtins (and for packages left outside): every file
 * of the bundle gets one, as the Lambda bundles do (serverless.yml), without an ESM import of node:module.
 */
export const REQUIRE_BANNER =
  "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);";

/** Every package import left to node_modules (esbuild's `packages: 'external'`), but START_PACKAGES. */
export const externalPackagesButStartOnes = {
  name: 'external-packages-but-start-ones',
  setup(build) {
    build.onResolve({ filter: /^[^./#]/ }, (args) => {
      if (args.path.startsWith('node:') || builtinModules.includes(args.path)) return undefined;
      const bundled = START_PACKAGES.some((name) => args.path === name || args.path.startsWith(`${name}/`));
      return bundled ? undefined : { path: args.path, external: true };
    });
  },
};

/**
 * An `import … from 'node:…'` in the bundle becomes a read of that builtin's CommonJS exports
 * (`process.getBuiltinModule`). For an ESM import Node builds the builtin's module namespace by reading every export,
 * getters included: three of node:http's load undici (WebSocket, CloseEvent, MessageEvent: about 70 ms of each start,
 * for classes the gateway never uses), node:fs's load its streams and promises, node:crypto's webcrypto. The named
 * exports here are the plain values of this Node's builtin (the build's Node runs the bundle; build-manifest.mjs
 * rebuilds when it changes); importing a getter by name fails the build instead of loading what it guards. `only`
 * names the builtins it applies to (all of them when absent).
 */
export function withoutFacade(only) {
  return {
    name: only ? `without-facade-${only.join('-')}` : 'builtins-without-facade',
    setup: (build) => readWithoutFacade(build, only),
  };
}

function readWithoutFacade(build, only) {
  build.onResolve({ filter: /^[a-z_]/ }, (args) => {
    const name = args.path.replace(/^node:/, '');
    if (!builtinModules.includes(name) || args.kind !== 'import-statement') return undefined;
    if (only && !only.includes(name)) return undefined;
    return { path: `node:${name}`, namespace: 'builtin-cjs' };
  });
  build.onLoad({ filter: /.*/, namespace: 'builtin-cjs' }, (args) => {
    const plain = Object.entries(Object.getOwnPropertyDescriptors(require(args.path)))
      .filter(
        ([name, descriptor]) =>
          'value' in descriptor && /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default',
      )
      .map(([name]) => name);
    return {
      contents: [
        `const builtin = process.getBuiltinModule(${JSON.stringify(args.path)});`,
        'export default builtin;',
        plain.length ? `export const { ${plain.join(', ')} } = builtin;` : '',
      ].join('\n'),
      loader: 'js',
    };
  });
}

/** Every builtin read without its facade: the gateway's bundle (its Node runs it). */
export const builtinsWithoutFacade = withoutFacade();
