#!/usr/bin/env bash
# Runs every case of the conformance corpus with `kiln run --interpret`,
# printing each case's per-output lines, then the pass count and the total
# wall time. Exit status 0 only when every case passes.
#
#   test/Interpreter/run-corpus.sh [KILN] [CORPUS_DIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
kiln=${1:-kiln}
corpus=${2:-$here/../corpus}

start=$(date +%s.%N)
cases=0
failed=()
for dir in "$corpus"/*/; do
  [ -f "$dir/manifest.json" ] || continue
  cases=$((cases + 1))
  "$kiln" run "$dir" --interpret || failed+=("$(basename "$dir")")
done
end=$(date +%s.%N)
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')

echo "corpus: $((cases - ${#failed[@]})) of $cases cases pass with kiln run --interpret" \
     "(total ${seconds} s)"
if ((${#failed[@]})); then
  echo "corpus: failing: ${failed[*]}"
  exit 1
fi
