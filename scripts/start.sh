#!/bin/sh
# `npm start`: installs dependencies when they are missing or stale, builds the site when its sources
# changed, and starts the whole product on embedded defaults (one port, data under .data/).
set -e
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing dependencies (npm ci)..."
  npm ci --no-audit --no-fund
fi
# A fresh npm run puts node_modules/.bin first on PATH, so the rest runs on the project's Node 22.
exec npm run --silent serve
