# What run.sh and run-untrusted.sh share, sourced by both: the paths, the checks of what
# the run needs, a work folder removed on exit (code-server stopped by its pid, its log
# and the extension's logs kept in the artifacts), and installing the .vsix and starting
# code-server on a free loopback port.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
EXT=$(dirname "$HERE")
REPO=$(dirname "$EXT")
CS_DIR=${CITELENS_CODE_SERVER_DIR:-/opt/citelens-ci/code-server-4.100.3}
VSIX=${CITELENS_VSIX:-$EXT/citelens.vsix}
CS_PID=

# require_tools: code-server, the packaged extension and chromium are there, else exit 2
require_tools() {
  [ -x "$CS_DIR/node_modules/.bin/code-server" ] || { echo "e2e: code-server missing in $CS_DIR: run .ci/install-vscode-e2e" >&2; exit 2; }
  [ -f "$VSIX" ] || { echo "e2e: $VSIX missing: run npm run package in vscode-extension/" >&2; exit 2; }
  command -v chromium >/dev/null || { echo "e2e: chromium missing: run .ci/install-vscode-e2e" >&2; exit 2; }
}

# make_work ART NAME: a fresh artifacts folder ART and a work folder $WORK (/tmp/NAME.*),
# with the user data of code-server in $WORK/cs-data; everything is cleaned up on exit
make_work() {
  ART=$1
  rm -rf "$ART"; mkdir -p "$ART"
  WORK=$(mktemp -d "/tmp/$2.XXXXXX")
  mkdir -p "$WORK/cs-data/User" "$WORK/tmp"
  trap cleanup EXIT
}

cleanup() {
  if [ -n "$CS_PID" ]; then
    kill -- -"$CS_PID" 2>/dev/null || true
    wait "$CS_PID" 2>/dev/null || true
  fi
  cp "$WORK/code-server.log" "$ART/" 2>/dev/null || true
  find "$WORK/cs-data/logs" -name '*CiteLens*.log' -exec cp {} "$ART/" \; 2>/dev/null || true
  rm -rf "$WORK"
}

# start_code_server FOLDER [OPTION...]: install the .vsix, start code-server on FOLDER in
# its own process group ($CS_PID) and wait until it answers; exports CITELENS_E2E_URL
start_code_server() {
  local folder=$1; shift
  export XDG_CONFIG_HOME=$WORK/xdg XDG_DATA_HOME=$WORK/xdg TMPDIR=$WORK/tmp
  local cs=("$CS_DIR/node_modules/.bin/code-server" --user-data-dir "$WORK/cs-data" --extensions-dir "$WORK/cs-ext")
  "${cs[@]}" --install-extension "$VSIX" --force > "$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; exit 1; }
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  setsid "${cs[@]}" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
    "$@" "$folder" > "$WORK/code-server.log" 2>&1 &
  CS_PID=$!
  for _ in $(seq 1 120); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.25; done
  export CITELENS_E2E_URL="http://127.0.0.1:$port"
}
