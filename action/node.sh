#!/usr/bin/env bash
# Step 1 of action.yml: is there a Node.js 20 or later (else setup-node runs), and the cache key of
# idemscan's build: the Node major, the lock file and every source file, so a new ref rebuilds.
set -euo pipefail
cd "$ACTION_PATH"
major=0
if command -v node >/dev/null 2>&1; then major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0); fi
need=false
if [ "$major" -lt 20 ]; then need=true; major=20; fi
sources=$( { sha256sum package.json package-lock.json tsconfig.json tsconfig.build.json; find src -type f -name '*.ts' -print0 | sort -z | xargs -0 sha256sum; } | sha256sum | cut -c1-32)
{
  echo "need=$need"
  echo "cache-key=idemscan-action-$(uname -s)-$(uname -m)-node$major-$sources"
} >>"$GITHUB_OUTPUT"
