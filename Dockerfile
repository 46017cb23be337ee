# syntax=docker/dockerfile:1
# The Waygate host for the aws mode (docs/aws.md): the long-lived process that runs the engines, consumes
# the command queue and answers the functions' RPC calls on HOST_PORT. Runs the same code as `npm start`.
#
#   docker build -t waygate-host .
#   docker run --env-file host.env -p 2786:2786 waygate-host
#
# No Docker engine runs where Waygate is developed and tested: tests/image/host-image.test.ts replays this file's
# stages (its context resolved as .dockerignore says, its npm and node steps run as written) and starts the host
# from the result until /healthz answers.

# The Node that CI tests on (.nvmrc; "Node version" in docs/development.md): the same exact version, so the image
# runs what passed.
ARG NODE_VERSION=24.21.0

# ── deps: a production install, what the image ships in node_modules ────────────────────────────────────────
FROM node:${NODE_VERSION}-bookworm-slim AS deps
# No compiler: better-sqlite3 ships prebuilt Node-API binaries. npm still runs its node-gyp step when it installs
# from the lock file (it builds no target), which needs python3 and make.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The versions of package-lock.json. `npm install` rather than `npm ci`, as in .ci/run: the lock file lacks some
# other platforms' optional packages (biome, swc builds), which `npm ci` refuses; every version present is kept.
# patches/: postinstall applies Waygate's patches of Baileys and libsignal, which the host checks for when it starts;
# the dev tool's patch (serverless-esbuild, a .dev.patch) is skipped, as is the tool.
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm install --omit=dev --no-audit --no-fund

# ── build: the host bundle ───────────────────────────────────────────────────────────────────────────────────
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# The bundle takes in the packages every start loads (scripts/build-plugins.mjs, START_PACKAGES) and leaves the
# rest to node_modules (the runtime stage takes deps'). So the build needs deps' production packages and esbuild:
# the lock's version, installed while package.json is not here yet, so that npm installs nothing else
# (--no-package-lock: the lock only names the version; npm neither reads nor rewrites it), then deps' node_modules
# copied over it (a COPY adds to a folder; it removes nothing).
COPY package-lock.json ./
RUN npm install --no-save --no-package-lock --no-audit --no-fund \
      "esbuild@$(node -p "require('./package-lock.json').packages['node_modules/esbuild'].version")"
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY scripts ./scripts
COPY shared ./shared
COPY functions ./functions
COPY host ./host
COPY embedded ./embedded
RUN node scripts/build.mjs

# ── runtime: production dependencies, the bundle, no build tools, not root ──────────────────────────────────────
FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    DEPLOYMENT_MODE=aws \
    HOST_PORT=2786 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/package.json ./package.json
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# DATA_DIR: scratch space only; in aws mode the stores, the queues and the linked-device credentials are in AWS.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 2786
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HOST_PORT||2786)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 (the shell execs it) and handles SIGTERM itself (graceful shutdown within SHUTDOWN_GRACE_MS). The heap
# limit (WAYGATE_HEAP_MB, docs/operations.md "Sizing") keeps V8 from growing toward the container's memory.
CMD ["sh", "-c", "exec node --min-semi-space-size=4 --max-old-space-size=${WAYGATE_HEAP_MB:-1024} dist/host/main.js"]
