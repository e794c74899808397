#!/usr/bin/env bash
# Step 3 of action.yml: run idemscan on what the inputs name, write the job summary and the step's
# outputs, and always succeed: the exit code is an output, so that the SARIF upload runs before
# the last step fails the job with it.
#
# Server text reaches the log only through idemscan (which already never starts a line with `::`),
# and between ::stop-commands:: markers with a random token, so no line of it can be a workflow
# command whatever it holds. The summary is a headline, the lines action/summary.mjs makes (the
# tools the gate matched, or the error line), then idemscan's Markdown report; server text in all
# of them is escaped.
set -euo pipefail

out="$RUNNER_TEMP/idemscan-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
mkdir -p "$out"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"

# Words as xargs splits them: quotes group, backslashes escape, nothing is expanded or run.
words() { printf '%s' "$1" | xargs -r printf '%s\0'; }

cmd=()
modes=0
for input in "$INPUT_AUDIT" "$INPUT_URL" "$INPUT_TARGETS" "$INPUT_TOOLS"; do if [ -n "$input" ]; then modes=$((modes + 1)); fi; done
if [ "$modes" -ne 1 ]; then
  echo "::error title=idemscan::give exactly one of the inputs audit, url, targets or tools (got $modes)"
  printf '## idemscan\n\nNot run: give exactly one of the inputs `audit`, `url`, `targets` or `tools`.\n' >>"$summary"
  echo "exit-code=2" >>"$GITHUB_OUTPUT"
  exit 0
fi

formats=json,md
if [ "$INPUT_SARIF" = true ]; then formats="$formats,sarif"; fi
opts=(--out "$out" --format "$formats")
if [ -n "$INPUT_FAIL_ON" ]; then opts+=(--fail-on "$INPUT_FAIL_ON"); fi
if [ -n "$INPUT_PROFILE" ]; then opts+=(--profile "$INPUT_PROFILE"); fi
if [ -n "$INPUT_BASELINE" ]; then opts+=(--baseline "$INPUT_BASELINE"); fi
if [ -n "$INPUT_SUPPRESS" ]; then opts+=(--suppress "$INPUT_SUPPRESS"); fi
extra=()
while IFS= read -r -d '' w; do extra+=("$w"); done < <(words "$INPUT_ARGS")

if [ -n "$INPUT_TARGETS" ]; then
  files=()
  while IFS= read -r -d '' w; do files+=("$w"); done < <(words "$INPUT_TARGETS")
  cmd=(scan "${files[@]}" "${opts[@]}" "${extra[@]}")
elif [ -n "$INPUT_TOOLS" ]; then
  cmd=(audit --tools "$INPUT_TOOLS" "${opts[@]}" "${extra[@]}")
elif [ -n "$INPUT_URL" ]; then
  cmd=(audit "${opts[@]}" "${extra[@]}" "$INPUT_URL")
else
  server=()
  while IFS= read -r -d '' w; do server+=("$w"); done < <(words "$INPUT_AUDIT")
  cmd=(audit "${opts[@]}" "${extra[@]}" -- "${server[@]}")
fi

token="idemscan-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
echo "::stop-commands::$token"
# stderr to the log as before, and to a file the summary takes the error line from.
stderr_file="$out-stderr.txt"
set +e
{
  CI=true node "$ACTION_PATH/dist/cli/main.js" "${cmd[@]}" 2>&1 1>&3 3>&- | tee "$stderr_file"
  code=${PIPESTATUS[0]}
} 3>&1
set -e
echo "::$token::"

echo "exit-code=$code" >>"$GITHUB_OUTPUT"
if [ -f "$out/report.json" ]; then echo "report-file=$out/report.json" >>"$GITHUB_OUTPUT"; fi
if [ -f "$out/report.sarif" ]; then echo "sarif-file=$out/report.sarif" >>"$GITHUB_OUTPUT"; fi

case "$code" in
  0) verdict="passed" ;;
  1) verdict="failed: \`--fail-on ${INPUT_FAIL_ON//\`/}\` matched (see the findings below and the step's log)" ;;
  3) verdict="failed: every target failed to be scanned" ;;
  *) verdict="could not check (exit $code)" ;;
esac
{
  printf '## idemscan: %s\n\n' "$verdict"
  # The matched tools or the error; without them (a broken build) the headline stands alone.
  node "$ACTION_PATH/action/summary.mjs" "$code" "$out/report.json" "$stderr_file" 2>/dev/null ||
    echo "idemscan: the summary's details could not be made" >&2
  if [ -f "$out/report.md" ]; then
    # GitHub refuses a step summary over 1 MiB; the JSON report has everything.
    limit=1000000
    head -c "$limit" "$out/report.md"
    if [ "$(wc -c <"$out/report.md")" -gt "$limit" ]; then printf '\n\n(Cut at 1 MB: the step summary limit. The JSON report has everything.)\n'; fi
  fi
} >>"$summary"
