"""Non-tensor plugin values (hwx buffers and barriers) in @triton.jit
kernels, compiled for cuda:90 without a GPU. KILN_PLUGIN_PATHS must load
the hwx plugin. Every check is an assert; prints lines for FileCheck.
`--run` runs the thread-id kernel on a GPU instead.
"""
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import kiln.triton
from kiln.language import hwx

TARGET = GPUTarget("cuda", 90, 32)


@triton.jit
def round_trip_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    buf = hwx.alloc([BLOCK], tl.float32, 2)
    hwx.store(buf[1], tl.load(x_ptr + offs))
    tl.store(y_ptr + offs, hwx.load(hwx.index(buf, 1)) * 2)


@triton.jit
def add_from(buf, x_ptr, offs):
    # A plugin value passed to (and returned from) an inlined function.
    hwx.store(buf, hwx.load(buf) + tl.load(x_ptr + offs))
    return buf


@triton.jit
def carried_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # Buffers and barriers carried through a loop and chosen by a branch.
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    offs = rows * BLOCK + cols
    bufs = hwx.alloc([BLOCK, BLOCK], tl.float16, 2)
    bars = hwx.alloc_barriers(2, count=1)
    hwx.store(bufs[0], tl.zeros([BLOCK, BLOCK], tl.float16))
    hwx.store(bufs[1], tl.zeros([BLOCK, BLOCK], tl.float16))
    cur = bufs[0]
    bar = bars[0]
    phase = 0
    for i in range(n):
        cur = add_from(cur, x_ptr, offs)
        hwx.barrier_arrive(bar)
        hwx.barrier_wait(bar, phase, pred=i < n)
        phase ^= 1
        if i % 2 == 0:
            cur = bufs[1]
        else:
            cur = bufs[0]
    tl.store(y_ptr + offs, hwx.load(cur))


@triton.jit
def chained_dot_kernel(q_ptr, k_ptr, v_ptr, o_ptr, M: tl.constexpr, D: tl.constexpr):
    # Attention's two products: S = Q @ K from buffers, then O = P @ V with
    # P, S's softmax-like rescale, from registers.
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, D)[None, :]
    q = hwx.alloc([M, D], tl.float16)
    k = hwx.alloc([D, D], tl.float16)
    v = hwx.alloc([D, D], tl.float16)
    hwx.store(q[0], tl.load(q_ptr + rows * D + cols))
    hwx.store(k[0], tl.load(k_ptr + tl.arange(0, D)[:, None] * D + cols))
    hwx.store(v[0], tl.load(v_ptr + tl.arange(0, D)[:, None] * D + cols))
    hwx.fence_async_shared()
    s = hwx.async_dot_wait(hwx.async_dot(q[0], k[0], tl.zeros([M, D], tl.float32)))
    p = tl.exp2(s - tl.max(s, 1)[:, None]).to(tl.float16)
    o = hwx.async_dot_wait(hwx.async_dot(p, v[0], tl.zeros([M, D], tl.float32)))
    tl.store(o_ptr + rows * D + cols, o)


@triton.jit
def wrong_kind_kernel(y_ptr, BLOCK: tl.constexpr):
    bars = hwx.alloc_barriers(1)
    tl.store(y_ptr + tl.arange(0, BLOCK), hwx.load(bars[0]))


@triton.jit
def wrong_shape_kernel(x_ptr, BLOCK: tl.constexpr):
    buf = hwx.alloc([BLOCK], tl.float32)
    hwx.store(buf[0], tl.load(x_ptr + tl.arange(0, 2 * BLOCK)))


@triton.jit
def ids_kernel(y_ptr, BLOCK: tl.constexpr):
    # A task's warps meet at named barrier 3; the clock around it.
    start = hwx.clock64()
    hwx.named_barrier_arrive(3, 128)
    hwx.named_barrier_wait(3, 128)
    spent = hwx.clock64() - start
    tl.store(y_ptr + tl.arange(0, BLOCK), spent + hwx.cluster_cta_rank())


@triton.jit
def thread_id_kernel(y_ptr, BLOCK: tl.constexpr):
    # Each task's thread 0 stores its task's part; ids count from the task's
    # first thread.
    offs = tl.arange(0, BLOCK)
    with hwx.async_tasks():
        with hwx.async_task(num_warps=1):
            if hwx.thread_id() == 0:
                tl.store(y_ptr + BLOCK + offs, offs)
        with hwx.async_task("default"):
            if hwx.thread_id() == 0:
                tl.store(y_ptr + offs, offs + hwx.thread_id(axis=1))
            # Each warp's first thread writes its warp's index.
            if hwx.thread_id() % 32 == 0:
                tl.store(y_ptr + 2 * BLOCK + hwx.warp_id(), hwx.warp_id())


@triton.jit
def reduce_kernel(y_desc):
    # Adds a tile of ones into y by TMA.
    buf = hwx.alloc([64, 64], tl.float32)
    hwx.store(buf[0], 1.0)
    hwx.fence_async_shared()
    hwx.async_reduce(y_desc, [0, 64 * tl.program_id(0)], buf[0])
    hwx.async_store_wait(0)


@triton.jit
def views_kernel(a_desc, bt_desc, o_ptr):
    # B kept K-major ([N, K]) and read transposed by the product; the
    # product's right half stored through a slice.
    a = hwx.alloc([128, 64], tl.float16)
    bt = hwx.alloc([128, 64], tl.float16)
    bars = hwx.alloc_barriers(1)
    hwx.barrier_expect(bars[0], 2 * 128 * 64 * 2)
    hwx.async_load(a_desc, [0, 0], a[0], bars[0])
    hwx.async_load(bt_desc, [0, 0], bt[0], bars[0])
    hwx.barrier_wait(bars[0], 0)
    acc = hwx.async_dot(a[0], hwx.trans(bt[0]), tl.zeros([128, 128], tl.float32))
    acc = hwx.async_dot_wait(acc, 0)
    out = hwx.alloc([128, 128], tl.float32)
    hwx.store(out[0], acc)
    half = hwx.load(hwx.slice(out[0], [0, 64], [128, 64]))
    offs = tl.arange(0, 128)[:, None] * 64 + tl.arange(0, 64)[None, :]
    tl.store(o_ptr + offs, half)


@triton.jit
def copies_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # Two tiles by cp.async in two groups; the first is read while the
    # second may still be in flight. Past n, the first tile reads zeros.
    offs = tl.arange(0, BLOCK)
    bufs = hwx.alloc([BLOCK], tl.float32, 2)
    hwx.async_copy(x_ptr + offs, bufs[0], mask=offs < n)
    hwx.async_copy_commit()
    hwx.async_copy(x_ptr + BLOCK + offs, bufs[1])
    hwx.async_copy_commit()
    hwx.async_copy_wait(1)
    first = hwx.load(bufs[0])
    hwx.async_copy_wait(0)
    tl.store(y_ptr + offs, first)
    tl.store(y_ptr + BLOCK + offs, hwx.load(bufs[1]))


@triton.jit
def wide_copy_kernel(x_ptr, y_ptr):
    # A 64x64 f16 tile by cp.async: coalesced like a load, 16 bytes a copy.
    r = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
    buf = hwx.alloc([64, 64], tl.float16)
    hwx.async_copy(x_ptr + r, buf[0])
    hwx.async_copy_commit()
    hwx.async_copy_wait(0)
    tl.store(y_ptr + r, hwx.load(buf[0]))


@triton.jit
def prefetch_kernel(a_desc, y_ptr, flag_ptr):
    # A prefetch into L2, the TMA load of the same block, its bytes read
    # back as 32-bit words through a reinterpreted view; a release fence
    # before the flag.
    col = 64 * tl.program_id(0)
    a = hwx.alloc([64, 64], tl.float16)
    bars = hwx.alloc_barriers(1)
    hwx.async_prefetch(a_desc, [0, col])
    hwx.barrier_expect(bars[0], 64 * 64 * 2)
    hwx.async_load(a_desc, [0, col], a[0], bars[0])
    hwx.barrier_wait(bars[0], 0)
    words = hwx.load(hwx.reinterpret(a[0], [64, 32], tl.int32))
    offs = tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :]
    tl.store(y_ptr + tl.program_id(0) * 64 * 32 + offs, words)
    hwx.fence("gpu", "release")
    tl.atomic_add(flag_ptr, 1)


@triton.jit
def swizzle_kernel(a_ptr, b_ptr, c_ptr):
    # A in a 64-byte swizzle (its rows are 64 bytes; kiln's choice would be
    # the same here, asked for explicitly), B in kiln's choice (128 bytes),
    # both read by one wgmma.
    ra = tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :]
    rb = tl.arange(0, 32)[:, None] * 64 + tl.arange(0, 64)[None, :]
    a = hwx.alloc([64, 32], tl.float16, swizzle=64)
    b = hwx.alloc([32, 64], tl.float16)
    hwx.store(a[0], tl.load(a_ptr + ra))
    hwx.store(b[0], tl.load(b_ptr + rb))
    hwx.fence_async_shared()
    c = hwx.async_dot_wait(hwx.async_dot(a[0], b[0], tl.zeros([64, 64], tl.float32)))
    tl.store(c_ptr + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :], c)


@triton.jit
def unswizzled_kernel(a_ptr, c_ptr):
    # Swizzle 0 asked for: a plain row-major buffer, read back.
    r = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
    a = hwx.alloc([64, 64], tl.float16, swizzle=0)
    hwx.store(a[0], tl.load(a_ptr + r))
    tl.store(c_ptr + r, hwx.load(a[0]))


@triton.jit
def bad_swizzle_kernel(a_ptr):
    a = hwx.alloc([64, 32], tl.float16, swizzle=128)
    hwx.store(a[0], 0.0)


@triton.jit
def task_capture_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    with hwx.async_tasks():
        with hwx.async_task(num_warps=1):
            tl.store(x_ptr + offs, x + 1)


@triton.jit(noinline=True)
def not_inlined(buf):
    hwx.store(buf, 1.0)


@triton.jit
def noinline_kernel(BLOCK: tl.constexpr):
    buf = hwx.alloc([BLOCK], tl.float32)
    not_inlined(buf[0])


@triton.jit
def multicast_kernel(x_desc, y_ptr, BLOCK_N: tl.constexpr, CLUSTER: tl.constexpr):
    # A cluster of CLUSTER CTAs: each loads its 1/CLUSTER of the columns of
    # a [64, BLOCK_N] block by TMA multicast into every CTA's buffer, then
    # tells every CTA it is done (a remote arrival) and waits until all
    # are; each CTA stores what it received (the whole block) as row block
    # `rank` of y.
    rank = hwx.cluster_cta_rank()
    part: tl.constexpr = BLOCK_N // CLUSTER
    buf = hwx.alloc([64, BLOCK_N], tl.float16)
    landed = hwx.alloc_barriers(1)
    done = hwx.alloc_barriers(1, count=CLUSTER)
    hwx.cluster_barrier()
    hwx.barrier_expect(landed[0], 64 * BLOCK_N * 2)
    for r in tl.static_range(CLUSTER):
        if rank == r:
            hwx.async_load(x_desc, [0, r * part], hwx.slice(buf[0], [0, r * part], [64, part]),
                           landed[0], multicast=(1 << CLUSTER) - 1)
    hwx.barrier_wait(landed[0], 0)
    for r in tl.static_range(CLUSTER):
        hwx.barrier_arrive(hwx.remote(done[0], r))
    hwx.barrier_wait(done[0], 0)
    offs = tl.arange(0, 64)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    tl.store(y_ptr + (tl.program_id(0) * CLUSTER + rank) * 64 * BLOCK_N + offs, hwx.load(buf[0]))
    hwx.cluster_barrier()


@triton.jit
def two_swizzles_kernel(a_desc, b_desc):
    # One buffer copied through 64- and 32-column blocks: no one swizzle fits.
    buf = hwx.alloc([64, 64], tl.float16)
    bars = hwx.alloc_barriers(1)
    hwx.barrier_expect(bars[0], 64 * 64 * 2 * 2)
    hwx.async_load(a_desc, [0, 0], buf[0], bars[0])
    hwx.async_load(b_desc, [0, 0], hwx.slice(buf[0], [0, 32], [64, 32]), bars[0])
    hwx.barrier_wait(bars[0], 0)


@triton.jit
def lone_cluster_barrier_kernel(y_ptr):
    hwx.cluster_barrier()
    tl.store(y_ptr, 1)


@triton.jit
def wait_remote_kernel(y_ptr):
    bars = hwx.alloc_barriers(1)
    hwx.barrier_wait(hwx.remote(bars[0], 1), 0)


def compile(fn, signature, constexprs, options=None, aligned=()):
    # `aligned`: argument indices Triton's launcher would mark 16-byte aligned.
    attrs = {(i,): [["tt.divisibility", 16]] for i in aligned}
    return triton.compile(ASTSource(fn, signature, constexprs=constexprs, attrs=attrs),
                          target=TARGET, options=options)


def error_of(fn, signature, constexprs, options=None):
    try:
        compile(fn, signature, constexprs, options)
    except Exception as e:  # Triton wraps the builtin's error with the source line
        return str(e)
    raise AssertionError(f"{fn.__name__} compiled")


def last_line(message):
    return message.strip().splitlines()[-1]


def main():
    print("ops:", ", ".join(sorted(n for n in dir(hwx) if not n.startswith("_"))))
    print("doc:", hwx.alloc.__doc__.splitlines()[0])

    message = error_of(round_trip_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {"BLOCK": 128})
    assert "hwx.alloc(" in message, message
    print("stock Triton:", last_line(message))

    kiln.triton.enable()
    kernel = compile(round_trip_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {"BLOCK": 128})
    assert kernel.metadata.compiler == "kiln"
    ttgir = kernel.asm["ttgir"]
    assert "kiln.kernel_op" not in ttgir and "tt.call" not in ttgir, ttgir
    assert "ttg.local_alloc" in ttgir and "ttg.memdesc_index" in ttgir, ttgir
    assert "st.shared" in kernel.asm["ptx"] and "ld.shared" in kernel.asm["ptx"]
    print("round trip: shared memory, %d bytes" % kernel.metadata.shared)

    kernel = compile(carried_kernel, {"x_ptr": "*fp16", "y_ptr": "*fp16", "n": "i32"}, {"BLOCK": 64})
    ttgir = kernel.asm["ttgir"]
    assert "ttng.wait_barrier" in ttgir and "ttng.arrive_barrier" in ttgir, ttgir
    assert "!tt.ptr<i8>" not in ttgir, ttgir
    assert "mbarrier.try_wait.parity" in kernel.asm["ptx"]
    print("carried: loop and branch take the buffers' and barriers' types")

    kernel = compile(chained_dot_kernel, {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16",
                                          "o_ptr": "*fp32"}, {"M": 128, "D": 64})
    ttgir = kernel.asm["ttgir"]
    assert ttgir.count("ttng.warp_group_dot ") == 2 and "#ttg.dot_op<{opIdx = 0" in ttgir, ttgir
    assert kernel.asm["ptx"].count("wgmma.mma_async") >= 2
    print("chained: the second product takes A from registers")

    kernel = compile(ids_kernel, {"y_ptr": "*i64"}, {"BLOCK": 128})
    ptx = kernel.asm["ptx"]
    assert ptx.count("%clock64") == 2 and "bar.arrive" in ptx and "bar.sync" in ptx, ptx
    assert "ttng.named_barrier_wait %c3_i32, %c128_i32" in kernel.asm["ttgir"]
    assert "%cluster_ctarank" in ptx, ptx
    print("ids: clock64 twice, named barrier 3 of 128 threads, the cluster rank")

    kernel = compile(thread_id_kernel, {"y_ptr": "*i32"}, {"BLOCK": 128})
    ttgir = kernel.asm["ttgir"]
    assert ttgir.count("ttg.thread_id") >= 2 and "arith.divui" in ttgir, ttgir
    assert "%tid.x" in kernel.asm["ptx"]
    print("thread ids: in each task (axis 1 is 0); warp ids")

    kernel = compile(reduce_kernel, {"y_desc": "tensordesc<fp32[64, 64]>"}, {})
    assert "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add" in kernel.asm["ptx"]
    print("reduce: a TMA add of a buffer into the descriptor's block")

    kernel = compile(views_kernel, {"a_desc": "tensordesc<fp16[128, 64]>",
                                    "bt_desc": "tensordesc<fp16[128, 64]>", "o_ptr": "*fp32"}, {})
    ttgir = kernel.asm["ttgir"]
    assert "ttg.memdesc_trans" in ttgir and "ttg.memdesc_subslice" in ttgir, ttgir
    assert "wgmma.mma_async" in kernel.asm["ptx"]
    print("views: a K-major B read transposed by the product, a slice of a buffer")

    kernel = compile(copies_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"},
                     {"BLOCK": 128})
    ttgir, ptx = kernel.asm["ttgir"], kernel.asm["ptx"]
    assert ttgir.count("ttg.async_copy_global_to_local") == 2, ttgir
    assert ttgir.count("ttg.async_commit_group") == 2 and "ttg.async_wait {num = 1" in ttgir, ttgir
    assert "cp.async.ca.shared.global" in ptx and ptx.count("cp.async.wait_group") == 2, ptx
    print("copies: two cp.async groups, the first waited for alone")
    kernel = compile(wide_copy_kernel, {"x_ptr": "*fp16", "y_ptr": "*fp16"}, {}, aligned=(0, 1))
    ptx = kernel.asm["ptx"]
    assert ptx.count("cp.async.cg.shared.global") == 4 and ", 16;" in ptx, ptx
    print("wide copies: a 64x64 f16 tile in 16-byte cp.async copies")

    kernel = compile(prefetch_kernel, {"a_desc": "tensordesc<fp16[64, 64]>", "y_ptr": "*i32",
                                       "flag_ptr": "*i32"}, {})
    ttgir, ptx = kernel.asm["ttgir"], kernel.asm["ptx"]
    assert "ttng.async_tma_prefetch" in ttgir and "ttg.memdesc_reinterpret" in ttgir, ttgir
    assert "cp.async.bulk.prefetch.tensor.2d.L2.global.tile" in ptx and "fence.release.gpu" in ptx
    print("prefetch: into L2 before the TMA load; a reinterpreted view; a release fence")

    kernel = compile(swizzle_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32"}, {})
    ttgir = kernel.asm["ttgir"]
    assert "swizzlingByteWidth = 64" in ttgir and "swizzlingByteWidth = 128" in ttgir, ttgir
    assert "wgmma.mma_async" in kernel.asm["ptx"]
    kernel = compile(unswizzled_kernel, {"a_ptr": "*fp16", "c_ptr": "*fp16"}, {})
    assert "swizzlingByteWidth = 0" in kernel.asm["ttgir"], kernel.asm["ttgir"]
    message = error_of(bad_swizzle_kernel, {"a_ptr": "*fp16"}, {})
    line = [l for l in message.splitlines() if "error:" in l][0]
    assert "hwx_values.py:" in line, message
    print("swizzle: 64 bytes asked for, read by wgmma; 0 asked for; 128 refused:",
          line.split("error: ")[1])

    message = error_of(wrong_kind_kernel, {"y_ptr": "*fp32"}, {"BLOCK": 128})
    assert "hwx.load(bars[0])" in message, message
    print("wrong kind:", last_line(message))

    message = error_of(wrong_shape_kernel, {"x_ptr": "*fp32"}, {"BLOCK": 128})
    print("wrong shape:", [l for l in message.splitlines() if "error:" in l][0].split("error: ")[1])
    assert "hwx_values.py:" in message, message

    message = error_of(task_capture_kernel, {"x_ptr": "*fp32"}, {"BLOCK": 128})
    line = [l for l in message.splitlines() if "error:" in l][0]
    assert "hwx_values.py:" in line, message
    print("task capture:", line.split("error: ")[1].split(";")[0])

    message = error_of(noinline_kernel, {}, {"BLOCK": 128})
    print("noinline:", [l for l in message.splitlines() if "error:" in l][0].split("error: ")[1])

    # Clusters: each CTA runs the program alone, and the launch groups them.
    kernel = compile(multicast_kernel, {"x_desc": "tensordesc<fp16[64, 64]>", "y_ptr": "*fp16"},
                     {"BLOCK_N": 128, "CLUSTER": 2}, {"num_ctas": 2})
    ttgir, ptx = kernel.asm["ttgir"], kernel.asm["ptx"]
    assert kernel.metadata.num_ctas == 2 and '"ttg.cluster-ctas" = 2' in ttgir, ttgir
    assert ".reqnctapercluster 2" in ptx and "%clusterid.x" in ptx, ptx
    assert "multicast::cluster" in ptx and "mapa.shared::cluster" in ptx, ptx
    assert "fence.mbarrier_init.release.cluster" in ptx and "barrier.cluster.wait" in ptx, ptx
    print("clusters: multicast copies, remote arrivals and cluster barriers in 2-CTA clusters")
    # Four CTAs: 64x32 parts of a 64x128 buffer, which takes their swizzle.
    kernel = compile(multicast_kernel, {"x_desc": "tensordesc<fp16[64, 32]>", "y_ptr": "*fp16"},
                     {"BLOCK_N": 128, "CLUSTER": 4}, {"num_ctas": 4})
    ttgir = kernel.asm["ttgir"]
    assert "swizzlingByteWidth = 64" in ttgir and "swizzlingByteWidth = 128" not in ttgir, ttgir
    print("inferred: a buffer filled by narrower TMA boxes takes their swizzle (64 bytes)")
    message = error_of(two_swizzles_kernel, {"a_desc": "tensordesc<fp16[64, 64]>",
                                             "b_desc": "tensordesc<fp16[64, 32]>"}, {})
    line = [l for l in message.splitlines() if "error:" in l][0]
    assert "hwx_values.py:" in line and "note: this copy needs 64 bytes" in message, message
    print("two swizzles:", line.split("error: ")[1])
    # A kernel with buffers that does not tell its CTAs apart: N copies of
    # its atomics would each apply, so clusters are refused.
    message = error_of(round_trip_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {"BLOCK": 128},
                       {"num_ctas": 2})
    line = [l for l in message.splitlines() if "error:" in l][0]
    assert "hwx_values.py:" in line, message
    print("not cluster-aware:", line.split("error: ")[1])
    message = error_of(lone_cluster_barrier_kernel, {"y_ptr": "*i32"}, {})
    line = [l for l in message.splitlines() if "error:" in l][0]
    assert "hwx_values.py:" in line, message
    print("one CTA:", line.split("error: ")[1])
    message = error_of(wait_remote_kernel, {"y_ptr": "*i32"}, {}, {"num_ctas": 2})
    line = [l for l in message.splitlines() if "error:" in l][0]
    assert "hwx_values.py:" in line, message
    print("remote wait:", line.split("error: ")[1])


def run():
    """On a GPU: each task's thread 0 alone stores (its own elements); the
    cp.async, prefetch and reinterpret kernels against torch."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    kiln.triton.enable()
    failed = 0

    def report(name, ok):
        nonlocal failed
        failed += not ok
        print(f"{name}: {'PASS' if ok else 'FAIL'}")

    x = torch.randn(256, device="cuda")
    y = torch.empty(256, device="cuda")
    copies_kernel[(1,)](x, y, 100, BLOCK=128)
    first = torch.where(torch.arange(128, device="cuda") < 100, x[:128], 0.0)
    ok = torch.equal(y[:128], first) and torch.equal(y[128:], x[128:])
    x16 = torch.randn(64, 64, device="cuda", dtype=torch.float16)
    y16 = torch.empty_like(x16)
    wide_copy_kernel[(1,)](x16, y16)
    ok = ok and torch.equal(x16, y16)
    report("copies", ok)

    a = torch.randn(64, 128, device="cuda", dtype=torch.float16)
    words = torch.empty(2, 64, 32, device="cuda", dtype=torch.int32)
    flag = torch.zeros(1, device="cuda", dtype=torch.int32)
    prefetch_kernel[(2,)](TensorDescriptor.from_tensor(a, [64, 64]), words, flag)
    got = words.view(torch.float16)  # [2, 64, 64]: each program's column block
    ok = torch.equal(got[0], a[:, :64]) and torch.equal(got[1], a[:, 64:]) and flag.item() == 2
    report("prefetch", ok)

    a = torch.randn(64, 32, device="cuda", dtype=torch.float16)
    b = torch.randn(32, 64, device="cuda", dtype=torch.float16)
    c = torch.empty(64, 64, device="cuda")
    swizzle_kernel[(1,)](a, b, c)
    ok = torch.allclose(c, a.float() @ b.float(), rtol=1e-3, atol=1e-3)
    x = torch.randn(64, 64, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    unswizzled_kernel[(1,)](x, y)
    ok = ok and torch.equal(x, y)
    report("swizzle", ok)

    block = 128
    y = torch.full((2 * block + 8,), -1, device="cuda", dtype=torch.int32)
    thread_id_kernel[(1,)](y, BLOCK=block, num_warps=4)
    ys = y.tolist()
    default = [i for i in range(block) if ys[i] != -1]
    task = [i for i in range(block) if ys[block + i] != -1]
    # 128 elements over the default task's 128 threads, over the one-warp
    # task's 32: thread 0 holds one, and four.
    ok = default == [0] and ys[0] == 0 and len(task) == 4 and all(ys[block + i] == i for i in task)
    warps = ys[2 * block:]
    ok = ok and warps == [0, 1, 2, 3, -1, -1, -1, -1]
    print(f"thread_id: {'PASS' if ok else 'FAIL'}: the default task wrote {default}, the "
          f"one-warp task {task}; warp_id: the default task's warps wrote {warps}")
    failed += not ok

    for cluster in (2, 4):
        # Over 4 CTAs each part is 32 columns (the buffer's swizzle 64 bytes).
        x = torch.randn(64, 128, device="cuda", dtype=torch.float16)
        y = torch.zeros(3 * cluster, 64, 128, device="cuda", dtype=torch.float16)
        multicast_kernel[(3,)](TensorDescriptor.from_tensor(x, [64, 128 // cluster]), y,
                               BLOCK_N=128, CLUSTER=cluster, num_ctas=cluster)
        report(f"multicast over {cluster} CTAs", all(torch.equal(y[i], x) for i in range(len(y))))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run() if "--run" in sys.argv else main())
