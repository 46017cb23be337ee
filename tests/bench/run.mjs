// `npm run bench`: runs every benchmark and prints its figures as JSON lines, with the goals beside them.
import { httpThroughput } from './http-throughput.mjs';
import { startupTime } from './startup.mjs';

const only = process.argv[2];
const benches = {
  http: async () => {
    const r = await httpThroughput();
    return {
      ...r,
      goals: { ratio: '>= 0.40', p99Ms: '< 10' },
      met: r.ratio >= 0.4 && r.gatewayLatencyMs.p99 < 10,
    };
  },
  startup: async () => {
    const r = await startupTime();
    return { ...r, goals: { medianMs: '< 1500' }, met: r.medianMs < 1500 };
  },
};
for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  const result = await bench();
  process.stdout.write(`${JSON.stringify({ bench: name, ...result })}\n`);
}
