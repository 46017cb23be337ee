// Issue 38: an agent's tool call against the REST call it stands for, on one embedded gateway (dist/, as `npm start`
// runs it) with MCP_ENABLED: `SessionFindOne` through POST /mcp against GET /api/sessions/{id} of the same session, same
// load tool (autocannon), same connections. The MCP client is what an agent sends once initialized: a raw JSON-RPC
// tools/call per request with the streamable HTTP headers (Accept of JSON and SSE, MCP-Protocol-Version); the server is
// stateless, so no initialize or session comes before it. Every answer must be the one checked first (autocannon's
// expectBody), so an in-band error (rate limited, refused) counts as a failure, not as a call. Loaded in alternation
// (REST, MCP, REST, …; BENCH_MCP_ROUNDS pairs, default 3); the figures are the medians with their range, and the
// gateway's CPU per call (from /proc) beside them.
import {
  cpuSeconds,
  createBenchSession,
  load,
  spread,
  startEmbeddedGateway,
  stopProcess,
} from './support.mjs';

const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 3);
// An agent host runs a handful of tool calls at once, not hundreds.
const CONNECTIONS = Number(process.env.BENCH_MCP_CONNECTIONS ?? 10);
// The limits of /mcp would answer most calls RATE_LIMITED in-band at these rates: lifted, as REST's are.
const UNLIMITED = '100000000';
const PROTOCOL_VERSION = '2025-11-25';

/** One timed run of `target`, with the CPU the gateway process `pid` spent per call. */
async function measure(target, pid) {
  const cpuBefore = cpuSeconds(pid);
  const result = await load(target.url, { ...target.request, connections: CONNECTIONS, duration: DURATION });
  const cpu = cpuSeconds(pid) - cpuBefore;
  return {
    callsPerSec: result.requests.average,
    p99: result.latency.p99,
    cpuUsPerCall: (cpu * 1e6) / Math.max(1, result.requests.total),
    failed: result.errors + result.non2xx + result.mismatches,
  };
}

/** The body of one answer of `target`, checked: the load's expected body. */
async function answerOf(target) {
  const { method = 'GET', headers, body } = target.request;
  const res = await fetch(target.url, { method, headers, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${target.url} answered ${res.status}: ${text}`);
  return text;
}

/** The structuredContent of the SSE answer of a tools/call. */
function toolResult(sse) {
  const data = sse.split('\n').find((line) => line.startsWith('data: '));
  const { result } = JSON.parse(data.slice('data: '.length));
  if (result?.isError) throw new Error(`SessionFindOne failed in-band: ${data}`);
  return result.structuredContent;
}

export async function mcpVsRest() {
  const gateway = await startEmbeddedGateway({
    MCP_ENABLED: 'true',
    MCP_RATE_LIMIT_MAX: UNLIMITED,
    MCP_IP_RATE_LIMIT_MAX: UNLIMITED,
  });
  try {
    const { base, key } = gateway;
    const session = await createBenchSession(base, key);
    const rest = { url: session.url, request: { headers: { 'x-api-key': key } } };
    const call = { name: 'SessionFindOne', arguments: { sessionId: session.id } };
    const mcp = {
      url: `${base}/mcp`,
      request: {
        method: 'POST',
        headers: {
          'x-api-key': key,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': PROTOCOL_VERSION,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: call }),
      },
    };
    const restBody = await answerOf(rest);
    const mcpBody = await answerOf(mcp);
    // The tool answers what REST answers: otherwise the two rates would not measure the same work.
    if (JSON.stringify(toolResult(mcpBody)) !== JSON.stringify(JSON.parse(restBody))) {
      throw new Error(`SessionFindOne answered ${mcpBody}, REST ${restBody}`);
    }
    rest.request.expectBody = restBody;
    mcp.request.expectBody = mcpBody;
    // Warm-up (JIT, statement cache, the lazily loaded MCP handler and its tools) of both.
    await load(rest.url, { ...rest.request, connections: CONNECTIONS, duration: 2 });
    await load(mcp.url, { ...mcp.request, connections: CONNECTIONS, duration: 2 });

    const pairs = [];
    for (let i = 0; i < ROUNDS; i++) {
      const restRun = await measure(rest, gateway.child.pid);
      const mcpRun = await measure(mcp, gateway.child.pid);
      pairs.push({ rest: restRun, mcp: mcpRun, ratio: mcpRun.callsPerSec / restRun.callsPerSec });
    }
    // Each figure of each side as the median of the rounds with their range ({ median, min, max }).
    const of = (pick, digits) => spread(pairs.map(pick), digits);
    const sides = (pick, digits) => ({
      rest: of((p) => pick(p.rest), digits),
      mcp: of((p) => pick(p.mcp), digits),
    });
    const ratio = of((p) => p.ratio, 3);
    return {
      client: 'raw JSON-RPC tools/call POSTs (no initialize: stateless server)',
      connections: CONNECTIONS,
      durationS: DURATION,
      rounds: ROUNDS,
      ratio: ratio.median,
      ratioRange: [ratio.min, ratio.max],
      callsPerSec: sides((run) => run.callsPerSec),
      latencyP99Ms: sides((run) => run.p99),
      cpuUsPerCall: sides((run) => run.cpuUsPerCall, 1),
      failed: pairs.reduce((n, p) => n + p.rest.failed + p.mcp.failed, 0),
    };
  } finally {
    await stopProcess(gateway.child);
  }
}
