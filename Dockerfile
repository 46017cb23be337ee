# syntax=docker/dockerfile:1
# The Waygate host for the aws mode (README "AWS mode"): the long-lived process that runs the engines, consumes
# the command queue and answers the functions' RPC calls on HOST_PORT. Runs the same code as `npm start`.
#
#   docker build -t waygate-host .
#   docker run --env-file host.env -p 2786:2786 waygate-host

# The Node that CI tests on (.nvmrc; README "Node version"): the same exact version, so the image runs what passed.
ARG NODE_VERSION=24.21.0

# ── build: the full dependency set (esbuild among them), then the host bundle ────────────────────────────────
FROM node:${NODE_VERSION}-bookworm-slim AS build
# No compiler: better-sqlite3 ships prebuilt Node-API binaries. npm still runs its node-gyp step when it installs
# from the lock file (it builds no target), which needs python3 and make.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The versions of package-lock.json. `npm install` rather than `npm ci`, as in .ci/run: the lock file lacks some
# other platforms' optional packages (biome, swc builds), which `npm ci` refuses; every version present is kept.
# patches/: Waygate's patches of Baileys (the receipt waits until a message is stored; KeyObject keys) and libsignal
# (KeyObject keys), and of serverless-esbuild (a dev tool, pruned below), applied by postinstall.
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm install --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY shared ./shared
COPY functions ./functions
COPY host ./host
COPY embedded ./embedded
RUN node scripts/build.mjs \
 && npm prune --omit=dev --no-audit --no-fund

# ── runtime: production dependencies, the bundle, no build tools, not root ──────────────────────────────────────
FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    DEPLOYMENT_MODE=aws \
    HOST_PORT=2786 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# DATA_DIR: scratch space only; in aws mode the stores, the queues and the linked-device credentials are in AWS.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 2786
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HOST_PORT||2786)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 (the shell execs it) and handles SIGTERM itself (graceful shutdown within SHUTDOWN_GRACE_MS). The heap
# limit (WAYGATE_HEAP_MB, README "Sizing") keeps V8 from growing toward the container's memory.
CMD ["sh", "-c", "exec node --enable-source-maps --max-old-space-size=${WAYGATE_HEAP_MB:-1024} dist/host/main.js"]
