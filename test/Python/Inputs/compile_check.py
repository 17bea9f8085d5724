"""Compiles a kernel with stock Triton 3.6 and the kiln bridge on, for
cuda:90 without a GPU, and checks that the kernel Triton returns is kiln's:

    compile_check.py tutorial NAME      a kernel of tutorial_kernels.py (ASTSource)
    compile_check.py corpus DIR         DIR/kernel.ttir, as triton.compile(path) reads it
    compile_check.py dot NAME [--capability 80] [--ptx FILE] [--debug]
                                        a kernel of dot_kernels.py, for cuda:90 or the
                                        capability given; --ptx writes kiln's PTX to FILE
                                        (any kind; --ttgir FILE likewise its TTGIR)
    compile_check.py gluon NAME [--ptx FILE]
                                        a Gluon kernel of gluon_kernels.py

Prints one summary line for FileCheck; any inconsistency is an assertion
error (exit status 1).
"""
import argparse
import json
import os
import re
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402

import kiln.triton  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)


def elf_sections(blob):
    """(arch, section names) of a 64-bit little-endian CUDA ELF."""
    assert blob[:4] == b"\x7fELF", "the cubin is not an ELF file"
    assert blob[4] == 2 and blob[5] == 1, "not a 64-bit little-endian ELF"
    machine, = struct.unpack_from("<H", blob, 18)
    assert machine == 190, f"e_machine {machine}, not EM_CUDA (190)"
    flags, = struct.unpack_from("<I", blob, 48)
    # The SM number sits in the low byte of e_flags for CUDA's ELF ABI
    # version 7 (ptxas up to 12.x) and in the next byte for version 8 (13.x).
    arch = flags & 0xFF if blob[8] < 8 else (flags >> 8) & 0xFF
    shoff, = struct.unpack_from("<Q", blob, 40)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", blob, 58)
    headers = [struct.unpack_from("<IIQQQQIIQQ", blob, shoff + i * shentsize) for i in range(shnum)]
    strtab_off, strtab_size = headers[shstrndx][4], headers[shstrndx][5]
    strtab = blob[strtab_off:strtab_off + strtab_size]
    names = [strtab[h[0]:strtab.index(b"\0", h[0])].decode() for h in headers]
    return arch, names


def check(kernel, expect_warps, capability=90, launch_warps=None):
    launch_warps = launch_warps or expect_warps
    md = kernel.metadata
    assert getattr(md, "compiler", None) == "kiln", f"compiled by {getattr(md, 'compiler', 'triton')}, not kiln"
    assert md.kiln_version == kiln.__version__
    cubin = kernel.asm["cubin"]
    arch, sections = elf_sections(cubin)
    assert arch == capability, f"cubin for sm_{arch}, not sm_{capability}"
    texts = [s[len(".text."):] for s in sections if s.startswith(".text.")]
    assert texts == [md.name], f"cubin kernels {texts}, metadata name {md.name!r}"
    ptx = kernel.asm["ptx"]
    assert re.findall(r"\.visible \.entry (\w+)", ptx) == [md.name]
    # sm_90's wgmma, setmaxnreg and TMA need the architecture-specific target.
    want = "sm_90a" if capability == 90 else f"sm_{capability}"
    assert re.search(rf"^\.target {want}\b", ptx, re.MULTILINE), f"PTX not for {want}"
    assert md.num_warps == launch_warps, f"num_warps {md.num_warps}, expected {launch_warps}"
    reqntid = re.search(r"\.reqntid (\d+)", ptx)
    assert reqntid and int(reqntid.group(1)) == 32 * md.num_warps, "block size differs from num_warps"
    assert f'"ttg.num-warps" = {expect_warps} : i32' in kernel.asm["ttgir"], "ttgir's num-warps differs"
    # kiln's own record of the kernel, in the first line of its PTX, agrees
    # with what Triton's launcher will read.
    line = re.match(r"// kiln\.metadata: (\{.*\})", ptx)
    assert line, "the PTX is not kiln's"
    recorded = json.loads(line.group(1))
    for key in ("name", "num_warps", "shared", "global_scratch_size", "profile_scratch_size", "tmem_size"):
        assert recorded[key] == getattr(md, key), f"{key}: PTX says {recorded[key]}, metadata {getattr(md, key)}"
    assert isinstance(md.shared, int) and md.shared >= 0
    print(f"kiln cubin {md.name} sm_{arch} num_warps={md.num_warps} shared={md.shared} "
          f"global_scratch={md.global_scratch_size}")


CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "corpus")


def compile_one(kind, arg, capability=90, extra={}):
    """(kernel, num_warps, expected name, warps it launches with) of one
    tutorial kernel, corpus case, dot or Gluon kernel."""
    target = GPUTarget("cuda", capability, 32)
    if kind == "tutorial":
        from tutorial_kernels import KERNELS
        spec = KERNELS[arg]
        kernel = triton.compile(spec.source(), target=target, options={"num_warps": spec.num_warps})
        return kernel, spec.num_warps, spec.fn.__name__, spec.num_warps
    if kind == "corpus":
        case = arg if os.path.isdir(arg) else os.path.join(CORPUS, arg)
        with open(os.path.join(case, "manifest.json")) as f:
            manifest = json.load(f)
        warps = manifest.get("num_warps", 4)
        kernel = triton.compile(os.path.join(case, "kernel.ttir"), target=target,
                                options={"num_warps": warps, "num_stages": manifest.get("num_stages", 3)})
        return kernel, warps, manifest["kernel"], warps
    if kind in ("dot", "gluon"):
        if kind == "dot":
            from dot_kernels import KERNELS as SPECS
        else:
            from gluon_kernels import KERNELS as SPECS
        spec = SPECS[arg]
        assert capability in spec.capabilities, f"{arg} is not meant for cuda:{capability}"
        kernel = triton.compile(spec.source(), target=target, options=dict(spec.options(), **extra))
        return kernel, spec.num_warps, spec.fn.__name__, spec.launch_warps
    raise SystemExit(f"unknown kind {kind!r}")


def ptxas_info(ptx, capability):
    """`ptxas -v`'s report (registers, spills) on `ptx`, from the ptxas the
    installed Triton compiles with (each release ships its own)."""
    import subprocess
    from triton.backends.nvidia.compiler import get_ptxas
    arch = f"sm_{capability}a" if capability == 90 else f"sm_{capability}"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "kernel.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        done = subprocess.run([get_ptxas(capability).path, f"-arch={arch}", "-v", path, "-o",
                               os.path.join(tmp, "kernel.cubin")], capture_output=True, text=True)
    assert done.returncode == 0, f"ptxas failed: {done.stderr}"
    return done.stderr + done.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=("tutorial", "corpus", "dot", "gluon"))
    parser.add_argument("name")
    parser.add_argument("--capability", type=int, default=TARGET.arch)
    parser.add_argument("--ptx", help="write the kernel's PTX to this file")
    parser.add_argument("--ttgir", help="write the kernel's TTGIR to this file")
    parser.add_argument("--debug", action="store_true",
                        help="compile with Triton's debug=True (dot and gluon kernels)")
    parser.add_argument("--ptxas-info", action="store_true",
                        help="print what `ptxas -v` (the ptxas this Triton release uses) says of the PTX")
    args = parser.parse_args()
    kiln.triton.enable()
    kernel, warps, name, launch_warps = compile_one(args.kind, args.name, args.capability,
                                                    {"debug": True} if args.debug else {})
    assert kernel.metadata.name == name, f"kernel {kernel.metadata.name}, expected {name}"
    if args.ptx:
        with open(args.ptx, "w") as f:
            f.write(kernel.asm["ptx"])
    if args.ttgir:
        with open(args.ttgir, "w") as f:
            f.write(kernel.asm["ttgir"])
    check(kernel, warps, args.capability, launch_warps)
    if args.ptxas_info:
        print(ptxas_info(kernel.asm["ptx"], args.capability))


if __name__ == "__main__":
    main()
