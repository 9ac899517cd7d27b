#!/usr/bin/env bash
# End-to-end test of Restricted Mode: code-server with workspace trust on opens a folder it
# does not trust, whose .vscode/settings.json names a "Python" that is really a script
# leaving a marker file. The extension must not run it: the server starts with the user's
# own citelens.interpreter (the repository's venv) and still checks the run. Same needs as
# run.sh (.ci/install-vscode-e2e, citelens.vsix); screenshots in e2e/artifacts/untrusted/.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
EXT=$(dirname "$HERE")
REPO=$(dirname "$EXT")
CS_DIR=${CITELENS_CODE_SERVER_DIR:-/opt/citelens-ci/code-server-4.100.3}
PYTHON=${CITELENS_E2E_ORACLE:-$REPO/.venv/bin/python}
VSIX=${CITELENS_VSIX:-$EXT/citelens.vsix}
ART=$HERE/artifacts/untrusted
[ -x "$CS_DIR/node_modules/.bin/code-server" ] || { echo "e2e: code-server missing in $CS_DIR: run .ci/install-vscode-e2e" >&2; exit 2; }
[ -f "$VSIX" ] || { echo "e2e: $VSIX missing: run npm run package in vscode-extension/" >&2; exit 2; }

rm -rf "$ART"; mkdir -p "$ART"
WORK=$(mktemp -d /tmp/citelens-e2e-untrusted.XXXXXX)
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

# the cloned repository: a run, and settings that name its own "interpreter"
WS=$WORK/cloned
MARKER=$WORK/the-workspace-interpreter-ran
mkdir -p "$WS/.vscode" "$WS/.venv/bin"
cp "$REPO/examples/rag26-with-mistakes.jsonl" "$REPO/examples/rag26-topics.tsv" "$WS/"
cat > "$WS/.venv/bin/python" <<SH
#!/bin/sh
touch "$MARKER"
exec "$PYTHON" "\$@"
SH
chmod +x "$WS/.venv/bin/python"
cat > "$WS/.vscode/settings.json" <<'JSON'
{
  "citelens.interpreter": "${workspaceFolder}/.venv/bin/python",
  "citelens.spec": "rag26"
}
JSON

# the user's own settings: trust on, no prompt (the folder stays untrusted), their interpreter
mkdir -p "$WORK/cs-data/User" "$WORK/tmp"
cat > "$WORK/cs-data/User/settings.json" <<JSON
{
  "security.workspace.trust.enabled": true,
  "security.workspace.trust.startupPrompt": "never",
  "security.workspace.trust.banner": "always",
  "citelens.interpreter": "$PYTHON",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "update.mode": "none",
  "telemetry.telemetryLevel": "off",
  "editor.minimap.enabled": false,
  "workbench.colorTheme": "Default Light Modern"
}
JSON
export XDG_CONFIG_HOME=$WORK/xdg XDG_DATA_HOME=$WORK/xdg TMPDIR=$WORK/tmp
CS=("$CS_DIR/node_modules/.bin/code-server" --user-data-dir "$WORK/cs-data" --extensions-dir "$WORK/cs-ext")
"${CS[@]}" --install-extension "$VSIX" --force > "$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; exit 1; }
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
setsid "${CS[@]}" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  "$WS" > "$WORK/code-server.log" 2>&1 &
CS_PID=$!
for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.25; done
export CITELENS_E2E_URL="http://127.0.0.1:$PORT" CITELENS_E2E_WORKSPACE=$WS CITELENS_E2E_MARKER=$MARKER
export CITELENS_E2E_PYTHON_USED=$PYTHON CITELENS_E2E_ARTIFACTS=$ART CITELENS_E2E_LOGS=$WORK/cs-data/logs
timeout 240 node "$HERE/drive-untrusted.mjs"
