// Preloaded into a benchmark's gateway (NODE_OPTIONS='--expose-gc --import=…/gc-on-signal.mjs'): SIGUSR2 runs full
// collections and prints one line, `bench-gc {…}`, with the memory left afterwards, so a bench reads what the
// gateway keeps alive rather than what V8 has not collected yet. Processes without --expose-gc ignore it. With
// BENCH_HEAP_SNAPSHOT_DIR, each signal also writes a heap snapshot there (to see what a session keeps alive).
import path from 'node:path';
import v8 from 'node:v8';

const snapshots = process.env.BENCH_HEAP_SNAPSHOT_DIR;
let taken = 0;

if (typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    for (let i = 0; i < 3; i++) globalThis.gc();
    if (snapshots)
      v8.writeHeapSnapshot(path.join(snapshots, `gateway-${process.pid}-${++taken}.heapsnapshot`));
    const m = process.memoryUsage();
    process.stdout.write(
      `bench-gc ${JSON.stringify({
        rss: m.rss,
        heapUsed: m.heapUsed,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        heapLimit: v8.getHeapStatistics().heap_size_limit,
      })}\n`,
    );
  });
}
