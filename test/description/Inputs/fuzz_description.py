#!/usr/bin/python3
"""Fuzz-style test: damaged module descriptions never crash kiln.

Usage: fuzz_description.py BIN_DIR SOURCE.py GOOD.json [N]

Applies N (default 300) seeded random mutations to GOOD.json (drop a key,
change a value's type, swap in huge or negative numbers, deep nesting,
dangling or cyclic references, truncated text) and compiles SOURCE.py with
each. Every run must end with exit status 0 or 1; a failure must print one
`error:` line; nothing may print `internal` or die by a signal. Prints
`all ok: N runs`.
"""
import copy
import json
import os
import random
import subprocess
import sys
import tempfile

JUNK = [None, True, -1, 0, 2 ** 63, 2 ** 70, 1.5, "", "x", ".", [], {},
        [-1], {"tuple": 3}, {"float": "inf"}, {"dtype": "!"}, [[[[]]]]]


def nodes(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from nodes(v, path + (i,))


def mutate(doc, rng):
    doc = copy.deepcopy(doc)
    path, _ = rng.choice(list(nodes(doc)))
    if not path:
        return rng.choice(JUNK)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    action = rng.randrange(4)
    if action == 0 and isinstance(parent, dict):
        del parent[key]
    elif action == 1:  # nesting, spelled out in the text (see deepen)
        parent[key] = "@DEEP%d@" % rng.choice([2, 40, 100000])
    elif action == 2 and isinstance(parent, dict):
        parent[key + "_" if isinstance(key, str) else key] = 1
    else:
        parent[key] = rng.choice(JUNK)
    return doc


def deepen(text):
    while "\"@DEEP" in text:
        start = text.index("\"@DEEP")
        end = text.index("@\"", start + 2)
        n = int(text[start + 6:end])
        text = text[:start] + "[" * n + "0" + "]" * n + text[end + 2:]
    return text


def main():
    bin_dir, source, good_path = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 300
    good = json.load(open(good_path))
    rng = random.Random(0)
    ok = True
    with tempfile.TemporaryDirectory(prefix="kiln-fuzz-desc-") as work:
        desc = os.path.join(work, "d.json")
        for i in range(runs):
            text = deepen(json.dumps(mutate(good, rng)))
            if i % 10 == 9:
                text = text[:rng.randrange(len(text))]
            with open(desc, "w") as f:
                f.write(text)
            proc = subprocess.run(
                [os.path.join(bin_dir, "kiln"), "compile", source,
                 "--module-description", desc, "--random-weights",
                 "--arg", "x=f32[2,3]", "--emit", "ir"],
                capture_output=True, text=True)
            bad = (proc.returncode not in (0, 1) or "internal" in proc.stderr
                   or (proc.returncode == 1 and "error:" not in proc.stderr))
            if bad:
                ok = False
                print("run %d: FAILED (exit %d): %s\n%s" % (
                    i, proc.returncode, proc.stderr[-2000:], text[:2000]))
    print("%s: %d runs" % ("all ok" if ok else "FAILED", runs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
