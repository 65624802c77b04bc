#!/usr/bin/env bash
# Builds the playground's static site into DIR (default: playground/):
# the page, and Musket's explicit engine compiled to WebAssembly with Go's
# wasm_exec.js, run in a Web Worker. Host DIR on any static web server
# (e.g. python3 -m http.server -d DIR); no musket serve is needed. Serve
# musket.wasm with a Cache-Control max-age if the host lets you: Chromium
# reuses its optimised code for the module on the next visit only when it
# may take the file from its cache without asking the server again (see
# worker.js).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-playground}"
mkdir -p "$out"
cp "$repo"/internal/playground/web/dist/* "$out"/
echo '{"mode":"static"}' > "$out/static.json"
(cd "$repo" && GOOS=js GOARCH=wasm CGO_ENABLED=0 go build -trimpath -ldflags=-s -o "$(cd "$OLDPWD" && cd "$out" && pwd)/musket.wasm" ./cmd/musket-wasm)
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out"/
echo "static site in $out: $(du -sh "$out" | cut -f1)"
