#!/usr/bin/env bash
# Builds the playground page into dist/ (committed, so that go build needs
# no npm): the pinned npm packages of package-lock.json, bundled and
# minified by esbuild, and the examples collected from the repository.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
rm -rf dist && mkdir -p dist
./node_modules/.bin/esbuild src/main.js --bundle --minify --format=esm --target=es2020 --legal-comments=none --outfile=dist/app.js
cp src/index.html src/style.css src/worker.js dist/
node gen-examples.mjs
ls -l dist
