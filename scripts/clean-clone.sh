#!/usr/bin/env bash
# A newcomer's first run, measured (issue 25 items 2 and 3; figures in docs/benchmarks.md#first-start):
# clone the committed HEAD into a temporary folder, `npm ci` (counting its EBADENGINE lines), then
# `npm start` twice on the built clone, timing each until the first answer, and once more after
# touching a source file. Exits non-zero when npm ci warns EBADENGINE or a start does not answer.
# Usage: scripts/clean-clone.sh [PORT]   (slow: a full install and build; not part of npm test)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
port="${1:-3999}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/brief"
cd "$work/brief"

now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc | xargs printf '%.1f'; }

started=$(now)
npm ci --no-audit --no-fund >"$work/ci.log" 2>&1 || { cat "$work/ci.log"; exit 1; }
install_s=$(since "$started")
ebadengine=$(grep -c EBADENGINE "$work/ci.log" || true)
[ -f dist/main.js ] && [ -f dist/web-app/index.html ] && built=yes || built=no

first_answer() {
  local log="$work/start-$1.log" began pid
  began=$(now)
  PORT=$port HOST=127.0.0.1 DATABASE_URL="sqlite:$work/brief.db" setsid npm start >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 1200); do
    if curl -sf -o /dev/null "http://127.0.0.1:$port/v2/shorten-domains"; then break; fi
    kill -0 "$pid" 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.05
  done
  echo "$(since "$began") s$(grep -q 'brief: building' "$log" && echo ' (built first)')"
  kill -- -"$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

echo "node $(node --version), npm $(npm --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "npm ci: ${install_s} s, EBADENGINE lines: ${ebadengine}, left a build: ${built}"
echo "npm start, first start on the built clone: $(first_answer 1)"
echo "npm start, second start: $(first_answer 2)"
touch src/main.ts
echo "npm start after touching src/main.ts: $(first_answer 3)"
[ "$ebadengine" = 0 ] && [ "$built" = yes ]
