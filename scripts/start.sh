#!/bin/sh
# `npm start`: installs dependencies when they are missing or stale, builds the site when its sources
# changed, and starts the whole product on embedded defaults (one port, data under .data/).
set -e
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing dependencies..."
  # npm ci refuses a lock whose optional per-platform packages the registry mirror lacks (it has
  # only some versions of them); npm install then installs the same locked versions.
  # Its refusal is expected there, so it is kept out of sight: one line says what happens instead.
  if ! npm ci --no-audit --no-fund --loglevel=error >"${TMPDIR:-/tmp}/beacon-npm-ci.log" 2>&1; then
    echo "npm ci could not use the lock file as is (details in ${TMPDIR:-/tmp}/beacon-npm-ci.log); installing the same versions with npm install..."
    npm install --no-audit --no-fund
  fi
fi
# A fresh npm run puts node_modules/.bin first on PATH, so the rest runs on the project's Node 22.
exec npm run --silent serve
