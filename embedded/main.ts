/**
 * `npm start`'s entry (dist/embedded/main.js): the compile cache on and stack traces mapped on demand
 * (process-setup.ts) before anything else loads, then the gateway itself (run-gateway.ts).
 */
import { prepareProcess } from '#shared/observability/process-setup.js';

prepareProcess();
await import('./run-gateway.js');
