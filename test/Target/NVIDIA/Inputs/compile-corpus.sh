#!/usr/bin/env bash
# Compiles one corpus case from its TTIR and from Triton's TTGIR to PTX and
# to a cubin, assembles the PTX once more with ptxas -arch=sm_90a itself,
# and prints what it saw: the cubin's ELF magic and the metadata's name and
# shared bytes (the PTX declares dynamic shared memory exactly when
# shared > 0).
#   KILN=path/to/kiln compile-corpus.sh CORPUS_DIR CASE OUT_DIR
set -euo pipefail
corpus=$1 case=$2 out=$3
for from in ttir ttgir; do
  src=$corpus/$case/kernel.ttir
  [ $from = ttgir ] && src=$corpus/$case/triton.ttgir
  base=$out/$case.$from
  "$KILN" compile "$src" --target cuda:90 --no-cache --stage ptx -o "$base.ptx"
  "$TRITON_PTXAS_PATH" -arch=sm_90a "$base.ptx" -o "$base.ptxas.cubin"
  "$KILN" compile "$src" --target cuda:90 --no-cache -o "$base.cubin"
  magic=$(od -A n -t x1 -N 4 "$base.cubin" | tr -d ' ')
  name=$(sed -n 's/.*"name": *"\([^"]*\)".*/\1/p' "$base.json")
  shared=$(sed -n 's/.*"shared": *\([0-9]*\).*/\1/p' "$base.json")
  extern=no
  grep -q '^\.extern \.shared' "$base.ptx" && extern=yes
  echo "$case $from: elf=$magic name=$name shared=$shared extern-shared=$extern"
done
