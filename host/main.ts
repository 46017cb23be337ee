/**
 * The host container's entry (aws mode, dist/host/main.js): the compile cache on and stack traces mapped on demand
 * (process-setup.ts) before anything else loads, then the host itself (run-host.ts).
 */
import { prepareProcess } from '#shared/observability/process-setup.js';

prepareProcess();
await import('./run-host.js');
