#!/usr/bin/env bash
# Installs the system packages Musket needs (Debian): Z3's C library for
# the SMT engine, clang-14 for C programs, and chromium for the
# playground's browser tests (internal/serve). Does nothing when they are
# there already; needs root (or sudo) otherwise.
set -euo pipefail
need=()
[ -f /usr/include/z3.h ] || need+=(libz3-dev)
command -v clang-14 >/dev/null 2>&1 || need+=(clang-14)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing ${need[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
