# Sourced on the first line of every shell block the doc-examples test runs (shell-block.ts).
# Strict mode, so a command that fails fails the block; `memlane` and `npx memlane` run through
# the test's relay; curl fails on an HTTP error and reaches loopback only; the variables an
# earlier block of the page set are set again, and this block's are kept for the next.
set -euo pipefail

memlane() { node "$MEMLANE_DOCS_SHIM" "$@"; }

npx() {
  if [ "${1-}" = memlane ]; then
    shift
    memlane "$@"
  else
    echo "doc examples: npx $1 is not run here (only npx memlane)" >&2
    return 64
  fi
}

# `npm install <packages>` stands for installing what the repository already has: it checks each
# package resolves. Anything else npm does (scripts, the network) is not for a doc example.
npm() {
  if [ "${1-}" = install ] && [ $# -gt 1 ]; then
    shift
    for package in "$@"; do
      [ -f "$MEMLANE_DOCS_ROOT/node_modules/$package/package.json" ] \
        || { echo "doc examples: $package is not installed" >&2; return 1; }
    done
  else
    echo "doc examples: npm $* is not run here; mark the block <!-- not run: why -->" >&2
    return 64
  fi
}

curl() {
  local arg
  for arg in "$@"; do
    case "$arg" in
      http://localhost* | http://127.0.0.1* | localhost* | 127.0.0.1*) ;;
      *://*) echo "doc examples: curl reaches loopback only, not $arg" >&2; return 64 ;;
    esac
  done
  command curl --fail-with-body --connect-timeout 5 --max-time 60 "$@"
}

# What the page's earlier blocks set.
if [ -f "$MEMLANE_DOCS_STATE/vars.sh" ]; then source "$MEMLANE_DOCS_STATE/vars.sh"; fi
__docs_known=" $(compgen -v | tr '\n' ' ') __docs_known __docs_failed __docs_name code depth "

# The block's own line of a command that fails, for the message: the ERR trap (inherited by
# functions and subshells, -E) looks through the call stack to the script's frame, so a failure
# inside `memlane` names the block's line that called it.
set -E
__docs_error() {
  local depth=${#BASH_LINENO[@]}
  __docs_failed=${BASH_LINENO[depth - 2]}
}
trap __docs_error ERR
__docs_exit() {
  local code=$?
  env -0 > "$MEMLANE_DOCS_STATE/env"
  for __docs_name in $(compgen -v); do
    case "$__docs_known" in *" $__docs_name "*) continue ;; esac
    case "$__docs_name" in BASH* | FUNCNAME | _*) ;; *) declare -p "$__docs_name" ;; esac
  done > "$MEMLANE_DOCS_STATE/vars.sh"
  if [ "$code" -ne 0 ]; then echo "doc examples: block line $((${__docs_failed-1} - 1)) exited $code" >&2; fi
}
trap __docs_exit EXIT
