#!/usr/bin/env bash
# The packages as users install them: `npm pack` every workspace (its `prepack` builds it), lint each tarball with
# publint and @arethetypeswrong/cli, install the tarballs into scratch projects, and use them there the four ways the
# README promises: plain Node ESM (client, file ledger, the mocks' Node mount), the mock-agent command (without msw), a
# Vite web app with the panel and the client (no `node:` import may reach the bundle), and the Playwright fixture in
# Debian's Chromium. A new workspace joins by being listed in package.json's `workspaces`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
fixtures="$repo/scripts/tarballs"
work="$(mktemp -d "${TMPDIR:-/tmp}/surecall-tarballs.XXXXXX")"
agent_pid=""
cleanup() {
  if [ -n "$agent_pid" ]; then kill "$agent_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
step() { printf '\n== %s\n' "$*"; }
install() { npm install --prefer-offline --no-audit --no-fund --loglevel=error "$@"; }

mkdir -p "$work/tarballs"
if [ -n "${SURECALL_TARBALLS:-}" ]; then
  # While working on this script: reuse tarballs packed earlier (`npm pack --workspaces --pack-destination <dir>`).
  step "reuse the tarballs in $SURECALL_TARBALLS"
  cp "$SURECALL_TARBALLS"/*.tgz "$work/tarballs/"
else
  step "pack every workspace"
  (cd "$repo" && npm pack --workspaces --pack-destination "$work/tarballs" --loglevel=error >/dev/null)
fi
mapfile -t tarballs < <(find "$work/tarballs" -name '*.tgz' | sort)
expected="$(cd "$repo" && node -p "require('./package.json').workspaces.length")"
if [ "${#tarballs[@]}" -ne "$expected" ]; then
  echo "expected $expected tarballs, got ${#tarballs[@]}" >&2
  exit 1
fi

for tarball in "${tarballs[@]}"; do
  step "lint $(basename "$tarball")"
  listing="$(tar -tzf "$tarball")"
  for required in package/README.md package/LICENSE package/package.json; do
    grep -qx "$required" <<<"$listing" || { echo "$required is missing" >&2; exit 1; }
  done
  if grep -E '\.test\.(ts|js)$' <<<"$listing"; then
    echo "tests are shipped" >&2
    exit 1
  fi
  # Every source map's sources must be in the tarball.
  unpacked="$work/unpacked/$(basename "$tarball" .tgz)"
  mkdir -p "$unpacked"
  tar -xzf "$tarball" -C "$unpacked"
  unpacked="$unpacked/package"
  node "$fixtures/maps.mjs" "$unpacked"
  (cd "$repo" && npx publint run "$tarball" --strict --level warning)
  # A stylesheet is no module for TypeScript to resolve: attw checks every other entry point.
  mapfile -t stylesheets < <(node -e "console.log(Object.keys(require(process.argv[1]).exports ?? {}).filter((key) => key.endsWith('.css')).join('\n'))" "$unpacked/package.json" | sed '/^$/d')
  exclude=()
  if [ "${#stylesheets[@]}" -gt 0 ]; then exclude=(--exclude-entrypoints "${stylesheets[@]}"); fi
  (cd "$repo" && npx attw "$tarball" --profile esm-only --format ascii "${exclude[@]}" >"$work/attw.txt") || {
    cat "$work/attw.txt"
    exit 1
  }
done

by_name() { printf '%s\n' "${tarballs[@]}" | grep -E "/surecall-$1-[0-9]"; }

step "the mock-agent command, installed without msw"
mkdir -p "$work/bare" && cd "$work/bare" && npm init -y >/dev/null
install "$(by_name client)" "$(by_name mocks)"
test ! -e node_modules/msw || { echo "msw was installed without being asked for" >&2; exit 1; }
mkfifo "$work/agent.out"
# The installed bin itself, not through npx: its pid is the agent's, so the kill below stops the agent.
node_modules/.bin/surecall-mock-agent --port 0 >"$work/agent.out" &
agent_pid=$!
read -r -t 30 first <"$work/agent.out"
kill "$agent_pid" && wait "$agent_pid" || true
agent_pid=""
[[ "$first" =~ ^READY\ [0-9]+\ token=[A-Za-z0-9_-]{43}$ ]] || { echo "surecall-mock-agent printed: $first" >&2; exit 1; }
echo "${first% token=*} token=…"

step "a user's project"
mkdir -p "$work/app" && cd "$work/app" && npm init -y >/dev/null && npm pkg set type=module
cp -R "$fixtures/." .
versions="$(cd "$repo" && node -p "const l=require('./package-lock.json').packages; ['vite','@playwright/test','msw','react','react-dom','@types/node','@types/react','typescript'].map((n)=>n+'@'+l['node_modules/'+n].version).join(' ')")"
# shellcheck disable=SC2086 # one word per package
install "${tarballs[@]}" $versions

step "plain Node ESM"
node node.mjs

step "types under NodeNext"
npx --no-install tsc -p tsconfig.json

step "a Vite web app with the panel and the client"
npx --no-install vite build web --outDir ../web-dist --emptyOutDir --logLevel warn 2>&1 | tee "$work/vite.txt"
# Vite never leaves a `node:` import in a browser bundle: it swaps the module for an empty one and only warns.
if grep -q 'externalized for browser compatibility' "$work/vite.txt" || grep -rlE "(from|import)[ (]*[\"']node:" web-dist; then
  echo "a node: module reached the browser bundle" >&2
  exit 1
fi
grep -q '\.surecall-devtools' web-dist/assets/*.css

step "the Playwright fixture in Debian's Chromium"
npx --no-install playwright test -c e2e/playwright.config.ts

printf "\nevery tarball works as installed: %s\n" "${tarballs[*]##*/}"
