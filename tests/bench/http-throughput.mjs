// Authenticated GET /api/sessions/{id} on the embedded server against a bare node:http hello-world: same machine,
// same load tool (autocannon), 50 connections. Audit and key usage stats are on, as always. The machine is shared,
// so the two are loaded in alternation (hello, gateway, hello, …; BENCH_HTTP_ROUNDS pairs, default 3): each ratio
// compares runs seconds apart, and the figures are the medians with their range. The servers' own CPU per request
// (from /proc) is reported beside them: it depends less on what else the machine runs than the rates do.
import {
  cpuSeconds,
  createBenchSession,
  freePort,
  httpOk,
  load,
  spread,
  startEmbeddedGateway,
  startProcess,
  stopProcess,
} from './support.mjs';

const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
const CONNECTIONS = 50;

/** One timed run against `url`, with the CPU the server process `pid` spent per request. */
async function measure(url, pid, headers = {}) {
  const cpuBefore = cpuSeconds(pid);
  const result = await load(url, { connections: CONNECTIONS, duration: DURATION, headers });
  const cpu = cpuSeconds(pid) - cpuBefore;
  return {
    reqPerSec: result.requests.average,
    p99: result.latency.p99,
    cpuUsPerRequest: (cpu * 1e6) / Math.max(1, result.requests.total),
    errors: result.errors + result.non2xx,
  };
}

export async function httpThroughput() {
  const helloPort = await freePort();
  const helloUrl = `http://127.0.0.1:${helloPort}/`;
  const hello = await startProcess(
    'node',
    ['tests/bench/hello-server.mjs', String(helloPort)],
    {},
    httpOk(helloUrl),
  );
  const gateway = await startEmbeddedGateway();
  try {
    const { url } = await createBenchSession(gateway.base, gateway.key);
    const headers = { 'x-api-key': gateway.key };
    // Warm-up (JIT, statement cache) of both.
    await load(helloUrl, { connections: CONNECTIONS, duration: 2 });
    await load(url, { connections: CONNECTIONS, duration: 2, headers });

    const pairs = [];
    for (let i = 0; i < ROUNDS; i++) {
      const helloRun = await measure(helloUrl, hello.child.pid);
      const gatewayRun = await measure(url, gateway.child.pid, headers);
      pairs.push({ hello: helloRun, gateway: gatewayRun, ratio: gatewayRun.reqPerSec / helloRun.reqPerSec });
    }
    const of = (pick, digits) => spread(pairs.map(pick), digits);
    const ratio = of((p) => p.ratio, 3);
    const gatewayP99 = of((p) => p.gateway.p99);
    const helloRate = of((p) => p.hello.reqPerSec);
    const gatewayRate = of((p) => p.gateway.reqPerSec);
    // Medians as plain numbers (what readers of the figures compare), the spread of the rounds beside them.
    return {
      connections: CONNECTIONS,
      durationS: DURATION,
      rounds: ROUNDS,
      helloReqPerSec: helloRate.median,
      helloReqPerSecRange: [helloRate.min, helloRate.max],
      gatewayReqPerSec: gatewayRate.median,
      gatewayReqPerSecRange: [gatewayRate.min, gatewayRate.max],
      ratio: ratio.median,
      ratioRange: [ratio.min, ratio.max],
      gatewayLatencyMs: { p99: gatewayP99.median, p99Range: [gatewayP99.min, gatewayP99.max] },
      helloLatencyMs: { p99: of((p) => p.hello.p99).median },
      cpuUsPerRequest: {
        hello: of((p) => p.hello.cpuUsPerRequest, 1),
        gateway: of((p) => p.gateway.cpuUsPerRequest, 1),
      },
      gatewayErrors: pairs.reduce((sum, p) => sum + p.gateway.errors, 0),
    };
  } finally {
    await stopProcess(hello.child);
    await stopProcess(gateway.child);
  }
}
