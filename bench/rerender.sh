#!/usr/bin/env bash
# Re-renders every published census run (output/ecosystem/*/report.json) in every format with the
# built CLI, into OUT (one folder per run, plus the trend of each run against the one before it and a
# tools/table print). Run it with two builds and `diff -r` the folders: a refactor must not move a byte.
#   bash bench/rerender.sh OUT [CLI]    (CLI defaults to dist/cli/main.js of this checkout)
set -euo pipefail
out=${1:?usage: bench/rerender.sh OUT [CLI]}
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${2:-$root/dist/cli/main.js}
mkdir -p "$out"
prev=
for run in "$root"/output/ecosystem/*/; do
  # Only run directories: servers/ holds the index's pages per server, no report.
  [ -f "$run/report.json" ] || continue
  name=$(basename "$run")
  dest="$out/$name"
  mkdir -p "$dest"
  node "$cli" report "$run/report.json" --format json,html,md,sarif,manifest,csv,ndjson --out "$dest"
  node "$cli" report "$run/report.json" --format table,tools >"$dest/print.txt" 2>&1 || true
  if [ -n "$prev" ]; then
    mkdir -p "$dest/trend"
    node "$cli" report "$run/report.json" --format json,md,html --compare "$prev" --out "$dest/trend"
  fi
  prev="$run/report.json"
done
echo "re-rendered $(find "$out" -type f | wc -l) files into $out"
