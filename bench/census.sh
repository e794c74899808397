#!/usr/bin/env bash
# The census run as a CI matrix would do it, on one machine: a cold install, three shards in
# parallel processes, their merge, and an unsharded scan of the same list to check the merge.
# Prints wall time, CPU time and peak RSS of each step (GNU time). Usage:
#   bench/census.sh [list] [workdir]
set -euo pipefail
LIST=${1:-targets/popular-npm.json}
WORK=${2:-/tmp/idemscan-census}
CLI="node $(pwd)/dist/cli/main.js"
CACHE="$WORK/cache"
FMT='%e s wall, %U s user, %S s sys, %M KB peak RSS'
mkdir -p "$WORK"
rm -rf "$CACHE" "$WORK"/shard-* "$WORK/merged" "$WORK/unsharded"

echo "== cold install of $LIST into $CACHE"
/usr/bin/time -f "install: $FMT" -o "$WORK/time-install.txt" \
  $CLI install "$LIST" --cache-dir "$CACHE" --concurrency 4 > "$WORK/install.log" 2>&1 || true
cat "$WORK/time-install.txt"

echo "== 3 shards in parallel"
for i in 1 2 3; do
  /usr/bin/time -f "shard $i/3: $FMT" -o "$WORK/time-shard-$i.txt" \
    $CLI scan "$LIST" --shard "$i/3" --sandbox --no-install --cache-dir "$CACHE" \
      --timeout 60000 --concurrency 4 --out "$WORK/shard-$i" --json "$WORK/shard-$i.json" --quiet \
      > "$WORK/shard-$i.log" 2>&1 &
done
wait || true
cat "$WORK"/time-shard-*.txt

echo "== merge"
/usr/bin/time -f "merge: $FMT" -o "$WORK/time-merge.txt" \
  $CLI merge "$WORK"/shard-1.json "$WORK"/shard-2.json "$WORK"/shard-3.json --out "$WORK/merged" --quiet
cat "$WORK/time-merge.txt"

echo "== unsharded, same cache"
/usr/bin/time -f "unsharded: $FMT" -o "$WORK/time-unsharded.txt" \
  $CLI scan "$LIST" --sandbox --no-install --cache-dir "$CACHE" --timeout 60000 --concurrency 4 \
    --out "$WORK/unsharded" --json "$WORK/unsharded.json" --quiet > "$WORK/unsharded.log" 2>&1 || true
cat "$WORK/time-unsharded.txt"

node -e '
const fs = require("fs");
const a = JSON.parse(fs.readFileSync(process.argv[1])).summary;
const b = JSON.parse(fs.readFileSync(process.argv[2])).summary;
console.log("merged   ", JSON.stringify(a));
console.log("unsharded", JSON.stringify(b));
console.log(JSON.stringify(a) === JSON.stringify(b) ? "summaries equal" : "SUMMARIES DIFFER");
' "$WORK/merged/report.json" "$WORK/unsharded.json"
