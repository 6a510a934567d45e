#!/usr/bin/env bash
# The repository stands alone: no tracked file may name a path outside it (the development
# machines' reference folder beside the clone, or an absolute path of a development machine).
# Usage: self_contained_test.sh REPO_ROOT
set -euo pipefail
cd "$1"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "self_contained_test: $1 is not a git work tree" >&2
  exit 1
fi
outside='\.\./sha''red|/work/(main|sha''red|wt)|XQ_SHA''RED_DIR'
hits=$(git ls-files -z | xargs -0 grep -nIE "$outside" -- 2>/dev/null || true)
if [ -n "$hits" ]; then
  echo "self_contained_test: files name a path outside the repository:" >&2
  echo "$hits" >&2
  exit 1
fi
files=$(git ls-files | wc -l)
echo "self_contained_test: $files tracked files, none names a path outside the repository"
