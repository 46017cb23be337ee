// Linking with the real Baileys engine against the WhatsApp network simulator (its own process): N sessions linked
// by QR one after another through the REST API of a gateway child process (`node dist/embedded/main.js`), then a
// restart of the gateway on the same data dir, timed from the new process's spawn to every session `ready`.
// CPU seconds of the simulator and of the gateway processes (from /proc) show which side is the bottleneck.
import {
  apiClient,
  killGroup,
  linkByQr,
  liveDevices,
  readAdminKey,
  round,
  sleep,
  spawnGateway,
  startSimulator,
  stats,
  stopGateway,
  waitHttpReady,
} from './baileys-support.mjs';
import { cpuSeconds, embeddedEnv, freePort, tempDataDir } from './support.mjs';

const SESSIONS = Number(process.env.BENCH_LINK_SESSIONS ?? 50);
const POLL_MS = 20;

export async function baileysLink() {
  const wallStart = performance.now();
  const benchCpuStart = process.cpuUsage();
  const dataDir = tempDataDir();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let sim;
  let gw1;
  let gw2;
  try {
    sim = await startSimulator();
    const env = embeddedEnv(port, dataDir, sim.gatewayEnv);
    const simCpuStart = cpuSeconds(sim.pid);

    // Phase 1: link N sessions one after another.
    gw1 = spawnGateway(env);
    await waitHttpReady(`${base}/api/health/ready`, gw1);
    const api = apiClient(base, readAdminKey(dataDir));
    const gw1CpuBeforeLinks = cpuSeconds(gw1.child.pid);
    const simCpuBeforeLinks = cpuSeconds(sim.pid);
    const links = [];
    const linkStart = performance.now();
    for (let i = 0; i < SESSIONS; i++) links.push(await linkByQr(api, sim, `bench-link-${i}`));
    const linkTotalS = (performance.now() - linkStart) / 1000;
    const linkCpu = {
      gatewayS: round(cpuSeconds(gw1.child.pid) - gw1CpuBeforeLinks),
      simulatorS: round(cpuSeconds(sim.pid) - simCpuBeforeLinks),
    };
    const liveAfterLink = await liveDevices(sim);
    const gw1Cpu = cpuSeconds(gw1.child.pid);
    const stop1 = await stopGateway(gw1);

    // Phase 2: restart on the same data dir; spawn → every session ready (GET /api/sessions every 20 ms).
    const simCpuBeforeRestart = cpuSeconds(sim.pid);
    const spawnAt = performance.now();
    gw2 = spawnGateway(env);
    let firstResponseMs = null;
    let readyAtFirstResponse = null;
    let allReadyMs = null;
    let lastCounts = {};
    while (performance.now() - spawnAt < 60_000) {
      if (gw2.child.exitCode !== null) throw new Error(`restarted gateway exited:\n${gw2.output()}`);
      const res = await api('GET', '/api/sessions').catch(() => null);
      if (res) {
        firstResponseMs ??= performance.now() - spawnAt;
        if (res.status === 200 && Array.isArray(res.body)) {
          lastCounts = {};
          for (const s of res.body) lastCounts[s.status] = (lastCounts[s.status] ?? 0) + 1;
          readyAtFirstResponse ??= lastCounts.ready ?? 0;
          if (res.body.length === SESSIONS && lastCounts.ready === SESSIONS) {
            allReadyMs = performance.now() - spawnAt;
            break;
          }
        }
      }
      await sleep(POLL_MS);
    }
    if (allReadyMs === null)
      throw new Error(`not every session ready 60 s after restart: ${JSON.stringify(lastCounts)}`);
    const restartCpu = {
      gatewayS: round(cpuSeconds(gw2.child.pid)),
      simulatorS: round(cpuSeconds(sim.pid) - simCpuBeforeRestart),
    };
    // The simulator's view: every device has its one live connection again.
    let liveAfterRestart = 0;
    for (let i = 0; i < 100; i++) {
      liveAfterRestart = await liveDevices(sim);
      if (liveAfterRestart === SESSIONS) break;
      await sleep(20);
    }
    const gw2Cpu = cpuSeconds(gw2.child.pid);
    const simCpu = cpuSeconds(sim.pid) - simCpuStart;
    const wallS = (performance.now() - wallStart) / 1000;
    const benchCpu = process.cpuUsage(benchCpuStart);
    const stop2 = await stopGateway(gw2);

    return {
      sessions: SESSIONS,
      link: {
        totalS: round(linkTotalS),
        perSessionMeanMs: Math.round((linkTotalS * 1000) / SESSIONS),
        perSessionMs: stats(links.map((l) => l.totalMs)),
        phasesMeanMs: {
          createStartToQr: round(links.reduce((a, l) => a + l.toQrMs, 0) / SESSIONS, 1),
          getQrAndScan: round(links.reduce((a, l) => a + l.scanMs, 0) / SESSIONS, 1),
          scanToReady: round(links.reduce((a, l) => a + l.toReadyMs, 0) / SESSIONS, 1),
        },
        cpuS: linkCpu,
        liveDevicesAfter: liveAfterLink,
      },
      restart: {
        allReadyMs: Math.round(allReadyMs),
        firstHttpResponseMs: Math.round(firstResponseMs),
        readyAtFirstResponse,
        cpuS: restartCpu,
        liveDevicesAfter: liveAfterRestart,
        previousStop: stop1,
      },
      cpuS: {
        wallS: round(wallS),
        simulator: round(simCpu),
        gateway: round(gw1Cpu + gw2Cpu),
        gatewayFirst: round(gw1Cpu),
        gatewayRestarted: round(gw2Cpu),
        benchClient: round((benchCpu.user + benchCpu.system) / 1e6),
      },
      finalStop: stop2,
    };
  } finally {
    await killGroup(gw1?.child);
    await killGroup(gw2?.child);
    await sim?.stop();
  }
}
