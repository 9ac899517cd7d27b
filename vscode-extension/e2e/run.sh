#!/usr/bin/env bash
# End-to-end test of the packaged extension in a real VS Code (code-server 4.100.3) driven
# by playwright-core in Debian's headless chromium. Builds a workspace from the repository's
# sample run with seeded faults, installs citelens.vsix, starts code-server on a free port,
# runs drive.mjs (screenshots + log in e2e/artifacts/), stops code-server by its pid.
# Needs: .ci/install-vscode-e2e done, vscode-extension/citelens.vsix built (npm run package).
set -euo pipefail
source "$(dirname "$0")/code-server.sh"
# the oracle (the CLI of this checkout) runs in the repository's venv; the extension starts
# with a fresh venv that has no CiteLens, and the test installs the .vsix's wheel into it
# through the extension's own "Install CiteLens into this interpreter" action
ORACLE=${CITELENS_E2E_ORACLE:-$REPO/.venv/bin/python}
require_tools
make_work "$HERE/artifacts" citelens-e2e

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
start_code_server "$WS" --disable-workspace-trust
export CITELENS_E2E_WORKSPACE=$WS CITELENS_E2E_EXPECTED=$WORK/expected.json CITELENS_E2E_SUPPORT=$WORK/support.json
export CITELENS_E2E_TRACKS=$WORK/tracks.json
export CITELENS_E2E_FRESH=$FRESH CITELENS_E2E_ORACLE=$ORACLE CITELENS_E2E_ARTIFACTS=$ART CITELENS_E2E_LOGS=$WORK/cs-data/logs
timeout 300 node "$HERE/drive.mjs"
