"""Prints MLIR (or JSON) nested N levels deep in one way: deep.py KIND N."""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
out = sys.stdout.write
if kind == "ptr":  # !tt.ptr<!tt.ptr<...>>, two levels below module and tt.func
    out("module {\n  tt.func @k(%a: " + "!tt.ptr<" * n + "f32" + ">" * n + ") {\n    tt.return\n  }\n}\n")
elif kind == "region":  # scf.if in scf.if ..., in a public kernel taking an i1
    out("module {\n  tt.func public @k(%c: i1) {\n" + "scf.if %c {\n" * n + "}\n" * n
        + "    tt.return\n  }\n}\n")
elif kind == "ptr-alias":  # !t1 = !tt.ptr<!t0>, ...: deep without deep text
    for i in range(n):
        out("!t%d = !tt.ptr<%s>\n" % (i, "!t%d" % (i - 1) if i else "f32"))
    out("module {\n  tt.func @k(%%a: !t%d) {\n    tt.return\n  }\n}\n" % (n - 1))
elif kind == "loc-alias":  # callsites in callsites, defined after their use
    out("module {\n  tt.func @k() {\n    tt.return loc(#l%d)\n  }\n}\n" % (n - 1))
    for i in range(n):
        out("#l%d = loc(%s)\n" % (i, 'callsite(#l%d at "b")' % (i - 1) if i else '"a":1:1'))
elif kind == "affine":  # d0 + d0 + ...: MLIR recurses per operator
    out("module attributes {tt.map = affine_map<(d0) -> (" + "d0 + " * n + "d0)>} {\n}\n")
elif kind == "json":
    out("[" * n + "]" * n)
else:
    sys.exit("unknown kind " + kind)
