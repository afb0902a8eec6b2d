# syntax=docker/dockerfile:1
# One image for every host: the production bundle (npm run bundle) on Node 22, run as a non-root
# user. tests/integration/deploy-files.test.ts keeps this file, compose.yaml and fly.toml in step
# with what the bundle test proves (start command, variable names, health path).

# Build: dependencies, the site, then the bundle (server sources, built site, content, production
# dependencies only) in /bundle.
FROM node:22-slim AS build
WORKDIR /src
ENV ASTRO_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm run bundle -- --dist dist --out /bundle

# Run: the bundle alone, read-only for the app user; everything written goes to the DATA_DIR volume.
FROM node:22-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /bundle ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: Node is PID 1 and gets SIGTERM itself, so the graceful stop (drain, then close) runs.
CMD ["node", "server/server.mjs"]
