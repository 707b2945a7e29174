#!/usr/bin/env bash
# The release as an operator runs it: the built tree, installed with production dependencies only
# (`npm ci --omit=dev`), started with `node apps/hub/dist/server.js`, must answer the API. Run by .ci/run
# after the tests, on a clean copy of the tracked files plus the build's dist/ directories.
#
# To keep CI fast, the copy's install runs without install scripts and reuses the better-sqlite3 binary
# this checkout's install compiled (same machine, same Node ABI); without one it is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

node scripts/build.mjs --if-stale

release=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
  rm -rf "$release"
}
trap cleanup EXIT

git ls-files -z | xargs -0 cp --parents -t "$release"
for dist in packages/*/dist apps/*/dist; do
  if [ -d "$dist" ]; then cp -r "$dist" "$release/$dist"; fi
done

cd "$release"
npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
native=node_modules/better-sqlite3/build/Release
if [ -f "$root/$native/better_sqlite3.node" ]; then
  mkdir -p "$native" && cp "$root/$native/better_sqlite3.node" "$native/"
else
  npm rebuild better-sqlite3 --loglevel=error
fi
# typescript is not checked: node-llama-cpp (the local provider) names it as an optional peer, so npm installs it.
for dev in tsx vitest @biomejs/biome esbuild; do
  if [ -e "node_modules/$dev" ]; then echo "release: devDependency $dev was installed" >&2; exit 1; fi
done

ADMIN_TOKEN=release-check-admin-token PORT=0 DATA_DIR="$release/.data" node apps/hub/dist/server.js >"$release/hub.log" 2>&1 &
pid=$!
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's/^Modelhub is running at \(http[^ ]*\).*/\1/p' "$release/hub.log" | head -n1)
  if [ -n "$url" ]; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.2
done
if [ -z "$url" ]; then
  echo "release: the hub did not start" >&2
  cat "$release/hub.log" >&2
  exit 1
fi

# GET url+path must answer 200 with `expect` in its body (Node's fetch: no curl needed on the machine); a third
# argument is sent as the bearer token.
check() {
  node -e '
    const [url, expect, token] = process.argv.slice(1);
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    fetch(url, { headers, signal: AbortSignal.timeout(10000) }).then(async (response) => {
      const body = await response.text();
      if (response.status !== 200 || !body.includes(expect)) {
        console.error(`release: GET ${url}: ${response.status}, ${JSON.stringify(body.slice(0, 300))}`);
        process.exit(1);
      }
    }, (error) => { console.error(`release: GET ${url}: ${error}`); process.exit(1); });
  ' "$url$1" "$2" "${3:-}"
}
check "/api/models?search=Llama-3.1-8B-Instruct&limit=1" '"id":"meta-llama/Llama-3.1-8B-Instruct"'
check "/api/models/meta-llama/Llama-3.1-8B-Instruct/snippets?provider=together" '"snippets"'
check "/widget/top-products.js" "attachShadow"
check "/healthz" '"ok"'
check "/readyz" '"ready"'
check "/metrics" "hub_http_requests_total" release-check-admin-token
check "/" "<html"
echo "release: node apps/hub/dist/server.js answers with production dependencies only"
