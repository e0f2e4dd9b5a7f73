#!/usr/bin/python3
"""Checks that a compiled archive imports only allowed symbols.

Usage: check_imports.py KILN ALLOWED.txt ARCHIVE

Runs `kiln inspect ARCHIVE`, reads the "cpu/...so imports:" lines, and
prints "ok: N imports, all allowed" or FAILED with the symbols that are not
in ALLOWED.txt (one name per line, # comments). Exit status 1 on failure.
"""
import subprocess
import sys


def main():
    kiln, allowed_path, archive = sys.argv[1:4]
    allowed = set()
    for line in open(allowed_path):
        line = line.split("#")[0].strip()
        if line:
            allowed.add(line)
    out = subprocess.run([kiln, "inspect", archive], capture_output=True,
                         text=True).stdout
    lines = [l for l in out.splitlines() if " imports: " in l]
    if not lines:
        print("FAILED: no code object in %s" % archive)
        sys.exit(1)
    bad, count = [], 0
    for line in lines:
        symbols = line.split(" imports: ", 1)[1].split()
        if symbols == ["(nothing)"]:
            continue
        count += len(symbols)
        bad += [s for s in symbols if s not in allowed]
    if bad:
        print("FAILED: %s imports %s" % (archive, " ".join(sorted(set(bad)))))
        sys.exit(1)
    print("ok: %d imports, all allowed" % count)


if __name__ == "__main__":
    main()
