# GateKeeper Portal image. See docs/docker.md for building and running it.
#
# A REAL DEPLOYMENT BY DEFAULT: the image seeds no demo accounts and refuses to start without
# SESSION_SECRET (32+ characters, e.g. `openssl rand -hex 32`) and LICENSE_SIGNING_KEY (an Ed25519 private
# key in PEM, `openssl genpkey -algorithm ed25519`), and with the embedded billing engine without the seller its
# invoices name (SELLER_LEGAL_NAME, SELLER_ADDRESS, SELLER_VAT_NUMBER). For a local demo run it with `-e SEED_DEMO=true`: the
# server then seeds the demo accounts into an empty database and generates its own secret and license
# signing key (.portal-secret and .license-signing-key.pem beside the database).

# ---- build: compiles better-sqlite3 from source, builds the Remix app, drops dev dependencies ----
FROM node:20-bookworm-slim AS build

# better-sqlite3 falls back to node-gyp when no prebuilt binary can be fetched (the case on
# machines that reach only the npm and Debian registries), and node-gyp needs these.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

# Playwright is a dev dependency for the e2e tests; its browser download would fail or waste time here.
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

WORKDIR /app

# Lockfile first, so the dependency layer (and its native compile) is reused when only source changes.
# patches/ too: the install's postinstall applies them (patch-package --error-on-fail, decisions 110 and 150),
# so a patch that no longer applies stops the build here instead of shipping an unpatched image.
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund

COPY . .
# --omit=optional as well (decision 115): in the production tree the optional packages are only typings and
# polyfills Node 20 does not need (typescript, an optional peer of @remix-run/*, 23 MB; @types/*;
# @zxing/text-encoding, 8 MB). The runtime needs only better-sqlite3's compiled .node file, not the SQLite
# sources and object files left by node-gyp (~25 MB).
RUN npm run build \
 && npm prune --omit=dev --omit=optional --no-audit --no-fund \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src \
           node_modules/better-sqlite3/build/Release/obj node_modules/better-sqlite3/build/Release/obj.target \
           node_modules/better-sqlite3/build/Release/sqlite3.a node_modules/better-sqlite3/build/Release/.deps

# ---- runtime: the built app and production node_modules only; no compiler, no dev tools ----
FROM node:20-bookworm-slim AS runtime

# DATABASE_URL points into the volume so the database (and the demo secret beside it) outlive
# the container. SEED_DEMO is spelled out to make the default visible: true only for a demo.
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_URL=file:/data/portal.sqlite \
    SEED_DEMO=false

WORKDIR /app

# Owned by root and so read-only for the 'node' user that runs the server: only /data is writable.
# The server reads db/migrations relative to its working directory (/app). Every script the server loads
# at run time is named here, and `node scripts/migrate.mjs` (npm run migrate) too: tests/server/docker-runtime.test.ts
# follows their imports and fails on one left out.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/db/migrations ./db/migrations
COPY --from=build /app/db/migrations-postgres ./db/migrations-postgres
COPY --from=build /app/scripts/start.mjs /app/scripts/server.mjs /app/scripts/remix-adapter.mjs /app/scripts/migrate.mjs /app/scripts/telemetry.mjs ./scripts/
# `node scripts/backup.mjs /data/<file>` in the running container copies its SQLite database (docs/operations.md).
COPY --from=build /app/scripts/backup.mjs /app/scripts/restore.mjs /app/scripts/sqlite-file.mjs ./scripts/

# The directory must exist and belong to 'node' before VOLUME, so a fresh named volume inherits that owner.
RUN mkdir -p /data && chown node:node /data
VOLUME /data

# uid 1000, created by the official node image
USER node

EXPOSE 3000

# No curl in the slim image: Node 20's built-in fetch does the probe.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# One portal process per core behind port 3000 (scripts/start.mjs forks scripts/server.mjs; WEB_CONCURRENCY to
# change), run directly: no npm in between, and node is PID 1 so it gets SIGTERM and stops its workers cleanly.
CMD ["node", "scripts/start.mjs"]
