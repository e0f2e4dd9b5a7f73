#!/usr/bin/python3
"""Compiles one multi-level archive and checks every level it holds.

Usage: target_levels.py BIN_DIR WORKDIR FILE.py...

Each FILE's @torch.jit.script functions go into one archive compiled with
--target-cpu=x86-64-v4,x86-64-v3,x86-64-v2,x86-64. Then, for each level:
  * its code object is disassembled with llvm-objdump: x86-64 and x86-64-v2
    must hold no AVX instruction (no VEX/EVEX mnemonic, which all start
    with "v", and no ymm/zmm/k register), x86-64-v3 no AVX-512; and, so that
    the check is known to be able to fail, x86-64-v3 must hold some AVX;
  * if this CPU has the level's features, KILN_CPU_DISABLE hides the features of every richer level, and
    `kiln inspect` must report that this level is the one that loads;
  * with the same setting, every entry point is run on the inputs of both of
    run_eager.DIM_SETS and compared with eager PyTorch at run_kiln's
    tolerances (rtol 1e-4, atol 1e-5: kiln's polynomial tanh/exp differ from
    libm by a few ulp, and FMA contraction differs between levels).
Prints one line per check and "all ok: N runs" when all pass.
"""
import os
import re
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
import run_eager  # noqa: E402
import run_kiln  # noqa: E402

OBJDUMP = "/usr/lib/llvm-19/bin/llvm-objdump"
FLAGS = open("/proc/cpuinfo").read()
# Level, and the features to hide so that it is the best one that loads;
# levels this CPU cannot run are compiled and disassembled, not run.
LEVELS = [("x86-64-v4", "", "avx512bw" in FLAGS),
          ("x86-64-v3", "avx512f", "avx2" in FLAGS),
          ("x86-64-v2", "avx2,avx512f", "sse4_2" in FLAGS),
          ("x86-64", "sse4.2,popcnt,avx2,avx512f", True)]
AVX_REGISTER = re.compile(r"%(?:ymm|zmm|k[0-7])\b")


def instructions(code):
    """(mnemonic, operands) of every instruction of an ELF object."""
    path = os.path.join(WORK, "object.so")
    with open(path, "wb") as f:
        f.write(code)
    text = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn", path],
                          capture_output=True, text=True, check=True).stdout
    for line in text.splitlines():
        # "    1a40:      vmovups (%rdi), %ymm0"
        match = re.match(r"\s+[0-9a-f]+:\s+(\S+)\s*(.*)", line)
        if match:
            yield match.group(1), match.group(2)


def isa_problem(level, code):
    uses_avx = uses_avx512 = False
    for mnemonic, operands in instructions(code):
        if mnemonic.startswith("v") or AVX_REGISTER.search(operands):
            uses_avx = True
        if re.search(r"%(?:zmm|k[0-7])\b", operands):
            uses_avx512 = True
    if level in ("x86-64", "x86-64-v2") and uses_avx:
        return "holds AVX instructions"
    if level == "x86-64-v3" and uses_avx512:
        return "holds AVX-512 instructions"
    if level == "x86-64-v3" and not uses_avx:
        return "holds no AVX instruction, so the check could not fail"
    return None


def main():
    global WORK
    bin_dir, WORK, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    kiln = os.path.join(bin_dir, "kiln")
    ok, runs = True, 0
    for path in paths:
        _, eager_ns, source = run_eager.load_both(path)
        entries = [e for e in run_eager.find_entry_points(source)
                   if e[0] == "function"]
        archive = os.path.join(WORK, os.path.basename(path) + ".kiln")
        targets = ",".join(level for level, _, _ in LEVELS)
        subprocess.run([kiln, "compile", path, "--target-cpu=" + targets,
                        "-o", archive], check=True)
        with zipfile.ZipFile(archive) as z:
            objects = {level: z.read("cpu/%s.so" % level)
                       for level, _, _ in LEVELS}
        for level, hidden, runs_here in LEVELS:
            label = "%s %s" % (os.path.basename(path), level)
            problem = isa_problem(level, objects[level])
            if problem:
                print("%s: FAILED: the code object %s" % (label, problem))
                ok = False
            if not runs_here:
                print("%s: not run, this CPU lacks the level" % label)
                continue
            os.environ["KILN_CPU_DISABLE"] = hidden
            inspect = subprocess.run([kiln, "inspect", archive],
                                     capture_output=True, text=True).stdout
            if "runtime check: ok, loads %s on" % level not in inspect:
                print("%s: FAILED: with KILN_CPU_DISABLE=%s, inspect says %r"
                      % (label, hidden, inspect.splitlines()[-1:]))
                ok = False
            for _, name, spec, funcdef in entries:
                params = [a.arg for a in funcdef.args.args]
                for k, dims in enumerate(run_eager.DIM_SETS):
                    runs += 1
                    ok &= run_kiln.check_run(
                        "%s %s dims#%d" % (label, name, k),
                        lambda: run_eager.make_inputs(name, funcdef, spec,
                                                      dims, k),
                        eager_ns[name], bin_dir, archive, name, params, WORK)
            del os.environ["KILN_CPU_DISABLE"]
    print("%s: %d runs" % ("all ok" if ok else "FAILED", runs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
