/** Architecture boundaries of DESIGN §5, enforced by `npm run lint`. */
module.exports = {
  forbidden: [
    { name: 'shared-is-leaf', severity: 'error', comment: 'shared/ imports neither functions/ nor host/',
      from: { path: '^shared/' }, to: { path: '^(functions|host)/' } },
    { name: 'functions-not-host', severity: 'error', comment: 'functions/ never reach into the host process',
      from: { path: '^functions/' }, to: { path: '^host/' } },
    { name: 'drivers-only-in-adapters', severity: 'error',
      comment: 'only adapters and engines import SDKs, SQLite or Baileys',
      from: { path: '^(functions|host|shared)/', pathNot: '^(shared/adapters|host/engines)/' },
      to: { path: 'node_modules/(better-sqlite3|@aws-sdk|@whiskeysockets|libsignal)' } },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'no-tests-in-src', severity: 'error', from: { path: '^(functions|host|shared)/' }, to: { path: '^tests/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
