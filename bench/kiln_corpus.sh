#!/bin/sh
# kiln's own cubins of the corpus's cases on an NVIDIA GPU: each
# case compiled by kiln from its kernel.ttir and, separately, from stock
# Triton's triton.ttgir (--from ttgir: Triton's layouts, kiln's lowering),
# so a failure points at layout choice or at lowering.
#
#   bench/kiln_corpus.sh prepare DIR KILN      on a machine with kiln and
#                                              ptxas: DIR/<case>.{ttir,ttgir}.cubin
#                                              with their metadata .json,
#                                              and DIR/ptxas-v.txt
#   bench/kiln_corpus.sh run DIR KILN_RUN_CUDA on the GPU machine: PASS/FAIL
#                                              per output and one table line
#                                              per case
#   bench/kiln_corpus.sh compile-run KILN      on the GPU machine with a
#                                              (static) kiln: `kiln run
#                                              --target cuda:90`, compiling
#                                              each case in process, no --cubin
#
# num_warps and num_stages are each case's manifest's.
set -eu
cases=${KILN_CASES:-"add_f32 saxpy_math softmax_f32 layernorm_f16 transpose_2d row_sum_argmax
cumsum_i32 dropout_rand int_ops_cast histogram_atomic gather_rows matmul_f16 matmul_tma_persistent"}
corpus=$(dirname "$0")/../test/corpus
mode=$1 dir=${2:-} tool=${3:-}
case $mode in
prepare)
  mkdir -p "$dir"
  : > "$dir/ptxas-v.txt"
  for c in $cases; do
    warps=$(sed -n 's/.*"num_warps": *\([0-9]*\).*/\1/p' "$corpus/$c/manifest.json")
    stages=$(sed -n 's/.*"num_stages": *\([0-9]*\).*/\1/p' "$corpus/$c/manifest.json")
    opts="--target cuda:90 --num-warps ${warps:-4} --num-stages ${stages:-3} --no-cache"
    for from in ttir ttgir; do
      src=$corpus/$c/kernel.ttir
      [ $from = ttgir ] && src=$corpus/$c/triton.ttgir
      if "$tool" compile "$src" $opts -o "$dir/$c.$from.cubin" 2> "$dir/$c.$from.err"; then
        rm -f "$dir/$c.$from.err"
        "$tool" compile "$src" $opts --stage ptx \
          -o "$dir/$c.$from.ptx"
        printf '%s.%s: ' "$c" "$from" >> "$dir/ptxas-v.txt"
        { ${PTXAS:-ptxas} -arch=sm_90a -v "$dir/$c.$from.ptx" -o /dev/null 2>&1 \
            | grep -E 'registers|spill' | sed 's/^ptxas info *: *//' | tr '\n' ' '; echo; } \
          >> "$dir/ptxas-v.txt"
      else
        echo "$c from $from: does not compile: $(head -1 "$dir/$c.$from.err")"
      fi
    done
  done ;;
run)
  pass=0 fail=0
  for c in $cases; do
    for from in ttir ttgir; do
      cubin=$dir/$c.$from.cubin
      if [ ! -f "$cubin" ]; then
        echo "RESULT $c $from NOT-COMPILED"
        fail=$((fail + 1))
        continue
      fi
      if "$tool" "$corpus/$c" --target cuda:90 --cubin "$cubin" --repeat 20; then
        echo "RESULT $c $from PASS"
        pass=$((pass + 1))
      else
        echo "RESULT $c $from FAIL"
        fail=$((fail + 1))
      fi
    done
  done
  echo "kiln cubins: $pass passed, $fail failed" ;;
compile-run)
  # $2 is kiln here: every field of the compile's metadata (the TMA
  # descriptors' included) must reach the launch.
  kiln=$2 pass=0 fail=0
  for c in $cases; do
    # A hung compile or kernel is a FAIL of its case, not the end of the run.
    if timeout 120 "$kiln" run "$corpus/$c" --target cuda:90 --repeat 20 --no-isolate; then
      echo "RESULT $c compile-run PASS"
      pass=$((pass + 1))
    else
      echo "RESULT $c compile-run FAIL"
      fail=$((fail + 1))
    fi
  done
  echo "kiln run --target cuda:90 (no --cubin): $pass passed, $fail failed" ;;
*) echo "usage: $0 prepare DIR KILN | run DIR KILN_RUN_CUDA | compile-run KILN" >&2; exit 1 ;;
esac
