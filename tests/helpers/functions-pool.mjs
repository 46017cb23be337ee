/**
 * The prewarm pool of the jest project `api-aws`. Booting a test gateway's serverless offline is about 4 of the 4 to
 * 5 seconds its start takes (and some 4.5 s of CPU); the pool keeps one deployment (tables, queues and bucket under a
 * fresh prefix, its functions already answering) ready, or under way, for the next test that asks for the default
 * functions, and starts preparing another once that one is taken and up (so that two boots never share the cores).
 *
 * It lives in the project's global setup (offline-global-setup.mjs), the one long-lived process of the run: a test
 * file's module registry is fresh per file, and jest may run files in several workers. Tests reach it over HTTP on
 * 127.0.0.1 (functions-pool-client.ts): `POST <url>/take` with the functions environment they need answers a
 * deployment (or 409 when its environment differs, 503 when the pool has none to give: the test then starts its
 * own, as without the pool), `POST <url>/release` stops one. The random token in the URL keeps other local processes
 * out. Takes are claimed synchronously, so concurrent ones never get the same deployment; a take that finds nothing
 * ready or under way gets one started for it alone. `stop()` (the global teardown) stops everything still held.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { deploymentNames, functionsEnv, sameEnv, startFunctions } from './offline-functions.mjs';

/**
 * Starts the pool and its first prewarm on the emulators at `endpoints` (`dynamodbEndpoint`, `sqsEndpoint`,
 * `s3Endpoint`). Answers `{ url, stop() }`; `url` carries the token.
 */
export async function startFunctionsPool(endpoints) {
  const env = functionsEnv();
  /** Deployments whose functions run and that nobody released yet (the ready one and those handed out), by id. */
  const held = new Map();
  /** Starts under way, awaited by stop() so none outlives the pool. */
  const starting = new Set();
  /** The one deployment ready or under way that nobody took yet. */
  let ready = null;
  let closed = false;
  let counter = 0;

  function prepare() {
    counter += 1;
    const id = `${counter}-${randomBytes(3).toString('hex')}`;
    const stores = deploymentNames(`pool-${id}`);
    // What the test gateway gets (PooledDeployment of functions-pool-client.ts); it knows the endpoints itself.
    const started = startFunctions({ ...endpoints, ...stores }).then((functions) => {
      held.set(id, functions);
      return { id, url: functions.url, queues: functions.queues, ...stores };
    });
    starting.add(started);
    // A failed prewarm nobody took yet must not count as an unhandled rejection; its taker sees the error.
    started.then(
      () => starting.delete(started),
      () => starting.delete(started),
    );
    return started;
  }

  const refill = () => {
    if (!closed && !ready) ready = prepare();
  };

  async function take() {
    if (closed) throw new Error('the pool is stopping');
    const mine = ready ?? prepare();
    ready = null;
    mine.then(refill, refill);
    const taken = await mine;
    const functions = held.get(taken.id);
    if (functions?.alive()) return taken;
    await release(taken.id);
    throw new Error('the prewarmed serverless offline exited before it was taken');
  }

  async function release(id) {
    const functions = held.get(id);
    if (!functions) return false;
    held.delete(id);
    await functions.stop();
    return true;
  }

  const server = http.createServer((req, res) => {
    answer(req, res).catch((error) => reply(res, 500, { error: String(error?.message ?? error) }));
  });
  const token = randomBytes(24).toString('hex');

  async function answer(req, res) {
    const body = req.method === 'POST' ? await readJson(req) : null;
    if (req.method === 'POST' && req.url === `/${token}/take`) {
      if (!sameEnv(body?.env ?? {}, env))
        return reply(res, 409, { error: 'the pool prewarms other functions env' });
      try {
        return reply(res, 200, await take());
      } catch (error) {
        return reply(res, 503, { error: String(error?.message ?? error) });
      }
    }
    if (req.method === 'POST' && req.url === `/${token}/release`) {
      return reply(res, (await release(String(body?.id))) ? 204 : 404);
    }
    return reply(res, 404, { error: 'not found' });
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  refill();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/${token}`,
    async stop() {
      closed = true;
      await new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.allSettled([...starting]);
      await Promise.allSettled([...held.keys()].map(release));
    },
  };
}

async function readJson(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : null;
}

function reply(res, status, body) {
  if (body === undefined) res.writeHead(status).end();
  else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
