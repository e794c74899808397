#!/usr/bin/env bash
# Step 2 of action.yml: install idemscan's locked dependencies (no install scripts) and build it,
# unless the cache restored both. Output goes to the log as is: it is npm's and tsc's, not a server's.
set -euo pipefail
cd "$ACTION_PATH"
if [ "${CACHE_HIT:-}" = true ] || { [ -f dist/cli/main.js ] && [ -e node_modules/.package-lock.json ]; }; then
  echo "idemscan: using the cached build ($(node dist/cli/main.js --version))"
  exit 0
fi
npm ci --no-audit --no-fund --ignore-scripts
npm run build
echo "idemscan: built $(node dist/cli/main.js --version)"
