/**
 * The Node line the host's entry points refuse to run below. better-sqlite3 13 needs Node-API 10: on an older Node
 * its addon loads and then crashes the process (a segmentation fault, no message) at the first query, so the entry
 * points stop first and say what to do. The line is .nvmrc's; tests/unit/tooling/node-runtime.test.ts keeps them
 * in step.
 */
export const MINIMUM_NODE_MAJOR = 24;

/** What to tell the operator when Node `version` (e.g. `20.20.2`) is too old to run the host; null when it is not. */
export function unsupportedNodeMessage(version: string): string | null {
  const major = Number(version.split('.')[0]);
  if (major >= MINIMUM_NODE_MAJOR) return null;
  return (
    `Waygate needs Node ${MINIMUM_NODE_MAJOR} (the version in .nvmrc); this is Node ${version}.\n` +
    'Run it through npm (npm start, npm run keys:recover, …), which fetches and uses that Node, ' +
    'or switch this shell first: source scripts/use-node.sh\n'
  );
}

/** Exits with that message when this Node is older than MINIMUM_NODE_MAJOR. */
export function requireSupportedNode(): void {
  const message = unsupportedNodeMessage(process.versions.node);
  if (message === null) return;
  process.stderr.write(message);
  process.exit(1);
}
