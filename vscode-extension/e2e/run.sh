#!/usr/bin/env bash
# End-to-end test of the packaged extension in a real VS Code (code-server 4.100.3) driven
# by playwright-core in Debian's headless chromium. Builds a workspace from the repository's
# sample run with seeded faults, installs citelens.vsix, starts code-server on a free port,
# runs drive.mjs (screenshots + log in e2e/artifacts/), stops code-server by its pid.
# Needs: .ci/install-vscode-e2e done, vscode-extension/citelens.vsix built (npm run package).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
EXT=$(dirname "$HERE")
REPO=$(dirname "$EXT")
CS_DIR=${CITELENS_CODE_SERVER_DIR:-/opt/citelens-ci/code-server-4.100.3}
# the oracle (the CLI of this checkout) runs in the repository's venv; the extension starts
# with a fresh venv that has no CiteLens, and the test installs the .vsix's wheel into it
# through the extension's own "Install CiteLens into this interpreter" action
ORACLE=${CITELENS_E2E_ORACLE:-$REPO/.venv/bin/python}
VSIX=${CITELENS_VSIX:-$EXT/citelens.vsix}
ART=$HERE/artifacts
[ -x "$CS_DIR/node_modules/.bin/code-server" ] || { echo "e2e: code-server missing in $CS_DIR: run .ci/install-vscode-e2e" >&2; exit 2; }
[ -f "$VSIX" ] || { echo "e2e: $VSIX missing: run npm run package in vscode-extension/" >&2; exit 2; }
command -v chromium >/dev/null || { echo "e2e: chromium missing: run .ci/install-vscode-e2e" >&2; exit 2; }

rm -rf "$ART"; mkdir -p "$ART"
WORK=$(mktemp -d /tmp/citelens-e2e.XXXXXX)
CS_PID=
cleanup() {
  if [ -n "$CS_PID" ]; then
    kill -- -"$CS_PID" 2>/dev/null || true
    wait "$CS_PID" 2>/dev/null || true
  fi
  cp "$WORK/code-server.log" "$ART/" 2>/dev/null || true
  find "$WORK/cs-data/logs" -name '*CiteLens*.log' -exec cp {} "$ART/" \; 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# the workspace: a run with seeded faults, its topics, and the folder's settings
WS=$WORK/workspace
mkdir -p "$WS/.vscode"
cp "$REPO/examples/rag26-with-mistakes.jsonl" "$REPO/examples/rag26-topics.tsv" "$WS/"
# folders whose citelens.toml wins over the workspace settings: kiddie/ holds a run with
# embedded documents (the evidence hover), convert/ a clean RAGTIME 2026 run that has
# errors under kiddie until "Convert File to Spec…" converts it
mkdir -p "$WS/kiddie" "$WS/convert"
printf 'spec = "kiddie"\ntopics = "kiddie-topics.jsonl"\n' > "$WS/kiddie/citelens.toml"
cp "$HERE/data/kiddie-run1.jsonl" "$WS/kiddie/run1.jsonl"
cp "$HERE/data/kiddie-topics.jsonl" "$WS/kiddie/"
printf 'spec = "kiddie"\ntopics = "ragtime26-topics.jsonl"\n' > "$WS/convert/citelens.toml"
cp "$REPO/examples/ragtime26-run.jsonl" "$WS/convert/convert-me.jsonl"
cp "$HERE/data/ragtime26-topics.jsonl" "$WS/convert/"
# a participant's repository inside the workspace (issue 18): two tracks with their topics,
# a corpus sample, nuggets, an excluded scratch/ and a pyproject.toml with [tool.citelens]
cp -r "$REPO/tests/fixtures/workspace_tracks" "$WS/tracks"
# a faulty run nobody opens: its findings reach the Problems panel through workspace diagnostics
mkdir -p "$WS/unopened"
cp "$REPO/examples/rag26-with-mistakes.jsonl" "$WS/unopened/never-opened.jsonl"
if [ -n "${CITELENS_E2E_PYTHON:-}" ]; then
  PYTHON=$CITELENS_E2E_PYTHON; FRESH=0   # a Python that has CiteLens already (development)
else
  python3 -m venv "$WORK/venv"; PYTHON=$WORK/venv/bin/python; FRESH=1
fi
cat > "$WS/.vscode/settings.json" <<JSON
{
  "citelens.interpreter": "$PYTHON",
  "citelens.spec": "rag26",
  "citelens.topics": "\${workspaceFolder}/rag26-topics.tsv",
  "citelens.debounceMs": 100
}
JSON
# what the CLI finds in the same file with the same settings: the Problems panel must match
(cd "$WS" && "$ORACLE" -m citelens check --format json --spec rag26 --topics rag26-topics.tsv rag26-with-mistakes.jsonl > "$WORK/expected.json") || true
# the tracks folder as `citelens check tracks` sees it: the Problems panel must hold exactly these
(cd "$WS" && "$ORACLE" -m citelens check --format json tracks > "$WORK/tracks.json") || true
# the support judge's verdicts and evidence for kiddie/run1.jsonl: go to definition selects that evidence
(cd "$WS/kiddie" && "$ORACLE" -m citelens check --support --executor serial --support-cache none --format json run1.jsonl > "$WORK/support.json") || true

mkdir -p "$WORK/cs-data/User" "$WORK/tmp"
cat > "$WORK/cs-data/User/settings.json" <<'JSON'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "update.mode": "none",
  "telemetry.telemetryLevel": "off",
  "editor.hover.delay": 300,
  "editor.minimap.enabled": false,
  "window.commandCenter": false,
  "chat.commandCenter.enabled": false,
  "workbench.colorTheme": "Default Light Modern"
}
JSON
export XDG_CONFIG_HOME=$WORK/xdg XDG_DATA_HOME=$WORK/xdg TMPDIR=$WORK/tmp
CS=("$CS_DIR/node_modules/.bin/code-server" --user-data-dir "$WORK/cs-data" --extensions-dir "$WORK/cs-ext")
"${CS[@]}" --install-extension "$VSIX" --force > "$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; exit 1; }
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
setsid "${CS[@]}" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  --disable-workspace-trust "$WS" > "$WORK/code-server.log" 2>&1 &
CS_PID=$!
for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.25; done
export CITELENS_E2E_URL="http://127.0.0.1:$PORT" CITELENS_E2E_WORKSPACE=$WS CITELENS_E2E_EXPECTED=$WORK/expected.json CITELENS_E2E_SUPPORT=$WORK/support.json
export CITELENS_E2E_TRACKS=$WORK/tracks.json
export CITELENS_E2E_FRESH=$FRESH CITELENS_E2E_ORACLE=$ORACLE CITELENS_E2E_ARTIFACTS=$ART CITELENS_E2E_LOGS=$WORK/cs-data/logs
timeout 300 node "$HERE/drive.mjs"
