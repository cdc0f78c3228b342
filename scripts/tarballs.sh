#!/usr/bin/env bash
# The packages as users install them: `npm pack` every workspace (its `prepack` builds it), lint each tarball with
# publint and @arethetypeswrong/cli, install the tarballs into two scratch projects, every peer at its latest version in
# one and at the oldest its range admits in the other (failing on ERESOLVE or any peer warning), and use them there the
# ways the README promises: plain Node ESM (client, file ledger, the mocks' MSW mount), the client end to end in Node,
# Bun and Deno (every operation, streams, the file and memory ledgers, a journal one runtime wrote opened by the next,
# the lost-answer matrix and the re-send probe) and in workerd through miniflare (every operation, the memory ledger,
# the ledger entry's typed refusal, the lost-answer matrix and the probe), printing the runtime × check matrix, the
# types of every entry with no `types` setting, a Vite web app with the mock agent's MSW worker, the client and the
# panel (no `node:` import may reach the bundle), the Playwright fixture and that app in Debian's Chromium, the client's page built by Vite, esbuild, Rollup, webpack,
# Parcel and Next (Turbopack and webpack), free of Node-only code and run in Chromium, with its bytes printed; the mock-agent command without msw, and the README's walkthrough
# of the surecall command as written, with the installed bins (`tarballs/walkthrough.mjs`), and docs/durable-send.md's
# opening example as written (`tarballs/docs-example.mjs`).
# A new workspace joins by being listed in package.json's `workspaces`.
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
attw_version=0.18.5

# The README's Install section, as written: its first sh block packs in the clone, its second installs into a project.
# `~` is a scratch home there (npm keeps its own cache), so the tarballs land in "$work/home/surecall-tarballs".
readme_install() {
  node -e '
    const text = require("fs").readFileSync(process.argv[1], "utf8");
    const section = text.slice(text.indexOf("\n## Install\n"), text.indexOf("\n## Documentation\n"));
    const blocks = [...section.matchAll(/\n```sh\n([\s\S]*?)\n```\n/g)].map((match) => match[1]);
    if (blocks.length !== 2) throw new Error(`README.md#install has ${blocks.length} sh blocks, not 2`);
    console.log(blocks[Number(process.argv[2])]);
  ' "$repo/README.md" "$1"
}
export npm_config_cache="${npm_config_cache:-$(npm config get cache)}"
mkdir -p "$work/home"
tarball_dir="$work/home/surecall-tarballs"
if [ -n "${SURECALL_TARBALLS:-}" ]; then
  # While working on this script: reuse tarballs packed earlier (`npm pack --workspaces --pack-destination <dir>`).
  step "reuse the tarballs in $SURECALL_TARBALLS"
  mkdir -p "$tarball_dir"
  cp "$SURECALL_TARBALLS"/*.tgz "$tarball_dir/"
else
  step "pack every workspace, as README.md#install says"
  (cd "$repo" && HOME="$work/home" bash -euo pipefail -c "$(readme_install 0)" >/dev/null)
fi
mapfile -t tarballs < <(find "$tarball_dir" -name '*.tgz' | sort)
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
  # attw runs on TypeScript 5's compiler API, which TypeScript 7 no longer has: it runs from npx's cache rather than
  # the repository's devDependencies, which keep one TypeScript (ARCHITECTURE.md#runtimes).
  (cd "$work" && npx --yes "@arethetypeswrong/cli@$attw_version" "$tarball" --profile esm-only --format ascii "${exclude[@]}" >"$work/attw.txt") || {
    cat "$work/attw.txt"
    exit 1
  }
done

by_name() { printf '%s\n' "${tarballs[@]}" | grep -E "/surecall-$1-[0-9]"; }

step "the mock-agent command, installed without msw"
mkdir -p "$work/bare" && cd "$work/bare" && npm init -y >/dev/null
install "$(by_name client)" "$(by_name cli)" "$(by_name mocks)"
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

step "the README's surecall walkthrough, as written, with the installed surecall and surecall-mock-agent"
node "$fixtures/walkthrough.mjs" "$repo/README.md"

step "README.md#install, as written, in a new project"
mkdir -p "$work/readme-install" && cd "$work/readme-install" && npm init -y >/dev/null
HOME="$work/home" bash -euo pipefail -c "$(readme_install 1)" >"$work/readme-install.txt" 2>&1 || {
  cat "$work/readme-install.txt" >&2
  exit 1
}
for name in client mocks devtools cli; do
  test -e "node_modules/@surecall/$name/package.json" || { echo "README.md#install did not install @surecall/$name" >&2; exit 1; }
done
test -x node_modules/.bin/surecall && test -e node_modules/msw/package.json
node_modules/.bin/surecall help | grep -q '^usage: surecall'

# The peers and tools a user's project brings, by name: what our packages declare as peers, and what a user builds and
# types with (TypeScript, Vite, the types of Node and React).
peers="$(node -e '
  const names = new Set(["typescript", "vite", "@types/node", "@types/react"]);
  for (const file of process.argv.slice(1)) {
    for (const name of Object.keys(require(file).peerDependencies ?? {})) names.add(name);
  }
  console.log([...names].sort().join(" "));
' "$work"/unpacked/*/package/package.json)"

# npm reports a peer it could not satisfy as ERESOLVE (an error) or as a warning naming the peer: either fails the step.
install_clean() {
  local log="$1"
  shift
  npm install --prefer-offline --no-audit --no-fund --loglevel=warn "$@" >"$log" 2>&1 || { cat "$log" >&2; return 1; }
  if grep -iE 'ERESOLVE|peer' "$log"; then
    echo "npm warned about peers: $log" >&2
    return 1
  fi
}

# A user's project: the tarballs with `version_of NAME` for each peer, used the ways the README promises.
user_project() {
  local name="$1" version_of="$2" browser="$3"
  step "a user's project, peers at their $name versions"
  local dir="$work/app-$name"
  mkdir -p "$dir" && cd "$dir" && npm init -y >/dev/null && npm pkg set type=module
  cp -R "$fixtures/." .
  local wanted=() peer
  for peer in $peers; do wanted+=("$peer@$("$version_of" "$peer")"); done
  echo "${wanted[*]}"
  install_clean "$work/install-$name.txt" "${tarballs[@]}" "${wanted[@]}"

  step "plain Node ESM ($name)"
  node node.mjs

  if [ "$name" = latest ]; then runtimes; fi

  step "docs/durable-send.md's example, as written, run by Node ($name)"
  node docs-example.mjs "$repo/docs/durable-send.md"

  step "types under NodeNext, no types setting, TypeScript $(npx --no-install tsc --version | cut -d' ' -f2) ($name)"
  npx --no-install tsc -p tsconfig.json

  [ "$browser" = browser ] || return 0
  step "a Vite web app with the mock agent's MSW worker, the panel and the client ($name)"
  npx --no-install msw init web/public --no-save >/dev/null
  npx --no-install vite build web --outDir ../web-dist --emptyOutDir --logLevel warn 2>&1 | tee "$work/vite.txt"
  # Vite never leaves a `node:` import in a browser bundle: it swaps the module for an empty one and only warns.
  if grep -q 'externalized for browser compatibility' "$work/vite.txt" || grep -rlE "(from|import)[ (]*[\"']node:" web-dist; then
    echo "a node: module reached the browser bundle" >&2
    exit 1
  fi
  grep -q '\.surecall-devtools' web-dist/assets/*.css

  step "the Playwright fixture and the web app in Debian's Chromium ($name)"
  SURECALL_WEB_PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")" \
    npx --no-install playwright test -c e2e/playwright.config.ts

  if [ "$name" = latest ]; then bundlers; fi
}

# The client's page (tarballs/bundled/) built by every bundler users have, installed into the project as a user
# installs one (current majors), each checked for Node-only code, run in Debian's Chromium against the installed
# mock agent on loopback, and its client bytes printed (tarballs/bundlers.mjs, docs/interop.md#bundlers).
bundlers() {
  step "the client's page built by Vite, esbuild, Rollup, webpack, Parcel and Next, run in Chromium ($name)"
  install esbuild@^0.28.2 rollup@^4.69.1 @rollup/plugin-node-resolve@^16.0.3 @rollup/plugin-terser@^1.0.2 \
    webpack@^5.113.0 parcel@^2.16.4 next@^16.5.0
  rm -f "$work/bundlers-agent.out" && mkfifo "$work/bundlers-agent.out"
  node_modules/.bin/surecall-mock-agent --port 0 >"$work/bundlers-agent.out" &
  agent_pid=$!
  local first
  read -r -t 30 first <"$work/bundlers-agent.out"
  [[ "$first" =~ ^READY\ ([0-9]+)\  ]] || { echo "surecall-mock-agent printed: $first" >&2; exit 1; }
  node bundlers.mjs "http://127.0.0.1:${BASH_REMATCH[1]}"
  kill "$agent_pid" && wait "$agent_pid" || true
  agent_pid=""
}

# The installed client end to end in Node, Bun and Deno (docs/interop.md#runtimes; Bun and Deno are the repository's
# devDependencies, from their npm packages), against the installed mock agent on loopback, its extended card behind a
# scope: each runtime opens the journal the one before it wrote, runs the lost-answer matrix, and reports whether its
# fetch re-sends a POST whose answer was lost. Then in workerd: a worker bundled from the project's node_modules with
# wrangler's conditions, run by miniflare (both esbuild and miniflare from the repository's devDependencies), on the
# same agent. Each writes the checks that held; the runtime × check matrix is printed from them.
runtimes() {
  step "the installed client in Node, Bun and Deno ($name)"
  mkfifo "$work/runtime-agent.out"
  node_modules/.bin/surecall-mock-agent --port 0 --extended-card-scope card.extended >"$work/runtime-agent.out" &
  agent_pid=$!
  local first
  read -r -t 30 first <"$work/runtime-agent.out"
  [[ "$first" =~ ^READY\ ([0-9]+)\ token=([A-Za-z0-9_-]{43})$ ]] || { echo "surecall-mock-agent printed: $first" >&2; exit 1; }
  local port="${BASH_REMATCH[1]}" token="${BASH_REMATCH[2]}" ledgers="$work/runtime-ledgers"
  local origin="http://127.0.0.1:$port"
  mkdir -p "$ledgers"
  node runtimes.mjs "$origin" "$token" node "$ledgers"
  "$repo/node_modules/.bin/bun" runtimes.mjs "$origin" "$token" bun "$ledgers" "$ledgers/node"
  # Only what the script needs: the agent's port, the ledgers' folder, and the environment the ledger reads.
  NO_COLOR=1 "$repo/node_modules/.bin/deno" run "--allow-net=127.0.0.1:$port" --allow-read "--allow-write=$ledgers" \
    --allow-env runtimes.mjs "$origin" "$token" deno "$ledgers" "$ledgers/bun"
  step "the installed client in workerd through miniflare ($name)"
  node workerd.mjs "$repo" "$origin" "$token" "$ledgers/workerd.checks.json"
  step "the installed tarballs, runtime × check ($name)"
  node runtime-matrix.mjs "$ledgers"
  kill "$agent_pid" && wait "$agent_pid" || true
  agent_pid=""
}

latest() { echo latest; }
# The oldest release a peer's range admits (the lowest bound of each peer range our packages declare); for the tools,
# the oldest lines we support: TypeScript 5.9, Node 22's types.
oldest() {
  case "$1" in
  typescript) echo 5.9 ;;
  @types/node) echo 22 ;;
  vite | @types/react) echo latest ;;
  *)
    local range
    range="$(node -e '
      const [name, ...files] = process.argv.slice(1);
      for (const file of files) { const range = require(file).peerDependencies?.[name]; if (range) { console.log(range); break; } }
    ' "$1" "$work"/unpacked/*/package/package.json)"
    npm view "$1@$range" version --json | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{const v=JSON.parse(s);console.log(Array.isArray(v)?v[0]:v)})'
    ;;
  esac
}

user_project latest latest browser
user_project oldest oldest browser

printf "\nevery tarball works as installed: %s\n" "${tarballs[*]##*/}"
