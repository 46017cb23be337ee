// Authenticated GET /api/sessions/{id} on the embedded server against a bare node:http hello-world:
// same machine, same load tool (autocannon), 50 connections. Audit and key usage stats are on, as always.
import { freePort, httpOk, load, startEmbeddedGateway, startProcess, stopProcess } from './support.mjs';

const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 50;

export async function httpThroughput() {
  const helloPort = await freePort();
  const hello = await startProcess(
    'node',
    ['tests/bench/hello-server.mjs', String(helloPort)],
    {},
    httpOk(`http://127.0.0.1:${helloPort}/`),
  );
  await load(`http://127.0.0.1:${helloPort}/`, { connections: CONNECTIONS, duration: 2 }); // warm-up
  const baseline = await load(`http://127.0.0.1:${helloPort}/`, {
    connections: CONNECTIONS,
    duration: DURATION,
  });
  await stopProcess(hello.child);

  const gateway = await startEmbeddedGateway();
  const { base, key } = gateway;
  const created = await fetch(`${base}/api/sessions`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-session' }),
  }).then((res) => res.json());
  const url = `${base}/api/sessions/${created.id}`;
  const headers = { 'x-api-key': key };
  const check = await fetch(url, { headers });
  if (check.status !== 200) throw new Error(`gateway answered ${check.status}`);
  await load(url, { connections: CONNECTIONS, duration: 2, headers }); // warm-up (JIT, statement cache)
  const gatewayRun = await load(url, { connections: CONNECTIONS, duration: DURATION, headers });
  await stopProcess(gateway.child);

  const errors = gatewayRun.errors + gatewayRun.non2xx;
  return {
    connections: CONNECTIONS,
    durationS: DURATION,
    helloReqPerSec: Math.round(baseline.requests.average),
    gatewayReqPerSec: Math.round(gatewayRun.requests.average),
    ratio: Number((gatewayRun.requests.average / baseline.requests.average).toFixed(3)),
    gatewayLatencyMs: {
      p50: gatewayRun.latency.p50,
      p99: gatewayRun.latency.p99,
      max: gatewayRun.latency.max,
    },
    helloLatencyMs: { p50: baseline.latency.p50, p99: baseline.latency.p99 },
    gatewayErrors: errors,
  };
}
