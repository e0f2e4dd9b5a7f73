#!/usr/bin/env python3
"""Times two archives of the same entry point in one run on one GPU: a
change's archive beside the one compiled before it, at several dim sets.

Runs on a GPU machine from a folder that run_on_gpu.sh --prepare-bench
made (kiln-run, the runtime), with the archives put beside it:

    python3 compare_archives.py OUT ENTRY BEFORE.kiln AFTER.kiln B=65536,N=1024 ...

For each dim set it times `kiln-run bench --inputs-on cuda` on random
inputs, before, after, before again (the medians of 50 warm calls each, a
synchronize after every call), so that a GPU whose clocks drift shows as
two different "before" times. It prints one line per dim set.
"""
import json
import os
import subprocess
import sys

from gpu_diff import runtime_env


def median_us(out, archive, entry, dims):
    cmd = [os.path.join(out, "bin", "kiln-run"), "bench", archive,
           "--input", "x=random", "--entry", entry, "--inputs-on", "cuda",
           "--json", "--iterations", "50"]
    for dim in dims.split(","):
        cmd += ["--dim", dim]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env=runtime_env(out))
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip())
    return json.loads(proc.stdout)["median_us"]


def main(out, entry, before, after, dim_sets):
    print("| dims | before (us) | after (us) | before again (us) | before / after |")
    print("|---|---|---|---|---|")
    for dims in dim_sets:
        b1 = median_us(out, before, entry, dims)
        a = median_us(out, after, entry, dims)
        b2 = median_us(out, before, entry, dims)
        print("| %s | %.1f | %.1f | %.1f | %.2fx |" % (
            dims, b1, a, b2, min(b1, b2) / a))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4],
                  sys.argv[5:]))
