/** Architecture boundaries of DESIGN §5, enforced by `npm run lint`. */
module.exports = {
  forbidden: [
    { name: 'shared-is-leaf', severity: 'error', comment: 'shared/ imports neither functions/, host/ nor embedded/',
      from: { path: '^shared/' }, to: { path: '^(functions|host|embedded)/' } },
    { name: 'functions-not-host', severity: 'error', comment: 'functions/ never reach into the host process',
      from: { path: '^functions/' }, to: { path: '^(host|embedded)/' } },
    { name: 'host-not-functions', severity: 'error',
      comment: 'host/ never reaches into the functions: the single-process root (embedded/) composes both',
      from: { path: '^host/' }, to: { path: '^(functions|embedded)/' } },
    { name: 'drivers-only-in-adapters', severity: 'error',
      comment: 'only adapters and engines import SDKs, SQLite or Baileys',
      from: { path: '^(functions|host|embedded|shared)/', pathNot: '^(shared/adapters|host/engines)/' },
      to: { path: 'node_modules/(better-sqlite3|@aws-sdk|@whiskeysockets|libsignal)' } },
    { name: 'mcp-sdk-only-in-mcp', severity: 'error', comment: 'only the agent-tool endpoint (functions/mcp/) imports the MCP SDK',
      from: { path: '^(functions|host|embedded|shared)/', pathNot: '^functions/mcp/' },
      to: { path: 'node_modules/@modelcontextprotocol' } },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'no-tests-in-src', severity: 'error', from: { path: '^(functions|host|embedded|shared)/' },
      to: { path: '^tests/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
