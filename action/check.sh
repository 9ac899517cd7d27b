#!/usr/bin/env bash
# The GitHub Action's check step (action.yml runs exactly this; tests run it too).
# Inputs come as CITELENS_* variables; findings go to standard output as workflow
# commands (annotations), the SARIF file is written when CITELENS_SARIF names one, and
# the exit status is citelens's own (0 clean, 1 errors, 2 usage or I/O problem).
set -uo pipefail
read -r -a paths <<< "${CITELENS_PATHS:?the paths input is required}"
args=()
[[ -n "${CITELENS_SPEC:-}" ]] && args+=(--spec "$CITELENS_SPEC")
[[ -n "${CITELENS_TOPICS:-}" ]] && args+=(--topics "$CITELENS_TOPICS")
[[ "${CITELENS_STRICT:-false}" == "true" ]] && args+=(--strict)
read -r -a docs <<< "${CITELENS_DOCS:-}"
for source in "${docs[@]}"; do args+=(--docs "$source"); done

if [[ -n "${CITELENS_SARIF:-}" ]]; then
  mkdir -p "$(dirname "$CITELENS_SARIF")"
  citelens check "${paths[@]}" "${args[@]}" --format sarif > "$CITELENS_SARIF"
  sarif_status=$?
  if (( sarif_status > 1 )); then
    echo "::error::citelens could not check the runs (exit status $sarif_status)"
  fi
fi
citelens check "${paths[@]}" "${args[@]}" --format github
status=$?
if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
  echo "exit-code=$status" >> "$GITHUB_OUTPUT"
fi
exit "$status"
