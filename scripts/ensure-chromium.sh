#!/usr/bin/env bash
# The e2e specs drive Debian's Chromium, never a downloaded browser (ARCHITECTURE.md#decisions): install it when it is
# missing and this machine allows it, so that `npm test` works on a fresh machine as well as in .ci/run.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$browser" ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  apt-get update && apt-get install -y chromium
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo apt-get update && sudo apt-get install -y chromium
else
  echo "The e2e suite needs Debian's Chromium at $browser: run 'apt-get install -y chromium' as root." >&2
  exit 1
fi
