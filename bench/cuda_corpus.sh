#!/bin/sh
# Runs the corpus's non-dot cases on an NVIDIA GPU from Triton's own PTX
# (test/corpus/*/triton.ptx), so that it checks kiln's CUDA runtime (loading,
# argument packing, hidden pointers, launch, checks) apart from kiln's code
# generation.
#
#   bench/cuda_corpus.sh prepare DIR   where ptxas is: DIR/<case>.cubin and
#                                      DIR/<case>.json (metadata from the PTX)
#   bench/cuda_corpus.sh run DIR KILN_RUN_CUDA   on the GPU machine
#
# The metadata: name from the PTX's .entry, num_warps from .reqntid / 32.
# The corpus keeps no Triton metadata JSON, so "shared" is not Triton's
# figure: 48 KiB, more than any of these kernels uses, and what every
# kernel may have without opting in.
set -eu
cases="add_f32 saxpy_math softmax_f32 layernorm_f16 transpose_2d row_sum_argmax cumsum_i32
dropout_rand int_ops_cast histogram_atomic gather_rows"
corpus=$(dirname "$0")/../test/corpus
mode=$1 dir=$2
case $mode in
prepare)
  mkdir -p "$dir"
  ptxas=${PTXAS:-ptxas}
  for c in $cases; do
    ptx=$corpus/$c/triton.ptx
    name=$(sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\)(.*/\1/p' "$ptx")
    threads=$(sed -n 's/^\.reqntid \([0-9]*\).*/\1/p' "$ptx")
    "$ptxas" -arch=sm_90a "$ptx" -o "$dir/$c.cubin"
    printf '{"name": "%s", "num_warps": %d, "num_ctas": 1, "shared": 49152, %s}\n' \
      "$name" $((threads / 32)) \
      '"global_scratch_size": 0, "global_scratch_align": 1, "profile_scratch_size": 0, "profile_scratch_align": 1, "target": {"backend": "cuda", "arch": 90, "warp_size": 32}' \
      > "$dir/$c.json"
  done ;;
run)
  tool=$3 pass=0 fail=0
  for c in $cases; do
    if "$tool" "$corpus/$c" --target cuda:90 --cubin "$dir/$c.cubin" --repeat 20; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1))
    fi
  done
  echo "cases: $pass passed, $fail failed" ;;
*) echo "usage: $0 prepare DIR | run DIR KILN_RUN_CUDA" >&2; exit 1 ;;
esac
