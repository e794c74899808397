#!/usr/bin/env bash
# Usage (root, cgroup v1 cpuacct and memory, after bench/census.sh filled the cache):
#   WORK=/tmp/idemscan-census bench/census-cgroup.sh I [list]
# Runs one census shard I of 3 in its own cgroup (v1: cpuacct + memory) so that the CPU time and peak
# memory of idemscan and every server it started are counted, killed ones included.
set -u
i=$1; LIST=${2:-targets/popular-npm.json}; WORK=${WORK:-/tmp/idemscan-census}; CLI="node $(pwd)/dist/cli/main.js"
for c in cpuacct memory; do mkdir -p /sys/fs/cgroup/$c/idemscan-shard-$i; echo $$ > /sys/fs/cgroup/$c/idemscan-shard-$i/tasks; done
start=$(date +%s.%N)
$CLI scan "$LIST" --shard $i/3 --sandbox --no-install --cache-dir $WORK/cache --timeout 60000 --concurrency 4 --json $WORK/cg-shard-$i.json -q > $WORK/cg-shard-$i.log 2>&1
end=$(date +%s.%N)
cpu=$(cat /sys/fs/cgroup/cpuacct/idemscan-shard-$i/cpuacct.usage)
mem=$(cat /sys/fs/cgroup/memory/idemscan-shard-$i/memory.max_usage_in_bytes)
echo "shard $i/3: wall $(echo "$end - $start" | bc) s, CPU $(echo "scale=1; $cpu/1000000000" | bc) s, peak memory $(echo "$mem/1048576" | bc) MiB (idemscan and its servers)"
