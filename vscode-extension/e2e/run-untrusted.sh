#!/usr/bin/env bash
# End-to-end test of Restricted Mode: code-server with workspace trust on opens a folder it
# does not trust, whose .vscode/settings.json names a "Python" that is really a script
# leaving a marker file. The extension must not run it: the server starts with the user's
# own citelens.interpreter (the repository's venv) and still checks the run. Same needs as
# run.sh (.ci/install-vscode-e2e, citelens.vsix); screenshots in e2e/artifacts/untrusted/.
set -euo pipefail
source "$(dirname "$0")/code-server.sh"
PYTHON=${CITELENS_E2E_ORACLE:-$REPO/.venv/bin/python}
require_tools
make_work "$HERE/artifacts/untrusted" citelens-e2e-untrusted

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
start_code_server "$WS"
export CITELENS_E2E_WORKSPACE=$WS CITELENS_E2E_MARKER=$MARKER
export CITELENS_E2E_PYTHON_USED=$PYTHON CITELENS_E2E_ARTIFACTS=$ART CITELENS_E2E_LOGS=$WORK/cs-data/logs
timeout 240 node "$HERE/drive-untrusted.mjs"
