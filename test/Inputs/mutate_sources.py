#!/usr/bin/python3
"""Byte-mutates Python files and reports every mutant that kiln accepts
although CPython rejects it.

kiln's lexer and parser must reject every file CPython's tokenizer rejects
(docs/python-subset.md). This generator looks for the whole class of bugs
rather than one repro: it changes, inserts or deletes one byte of an example
file, asks CPython (`compile(src, name, 'exec')`) whether the mutant is
valid, and compiles each invalid mutant with kiln.

- A file with a `@torch.jit.script` function is compiled with
  `kiln compile FILE --emit=ir`; exit 0 means kiln accepted it.
- A file of nn.Module classes would need Python to run `__init__`, which is
  too slow for thousands of mutants, so its `--emit=ast` is read instead:
  kiln accepted the mutant if every top-level def and class that parsed in
  the original still parses.

A mutant is *inside* when the changed byte is within a top-level def or
class of the original (decorators included): kiln parses those. Any other
place is top-level code that kiln skips unparsed, and so is the rest of a
def from the first construct kiln does not support (`Skipped function 'f'
@65:1: with is not supported (at 70:5)` in the original's --emit=ast):
kiln never compiles it, and that construct hides what follows. Any exit status other
than 0 and 1 is a crash and always reported.

Usage: mutate_sources.py --kiln PATH [--count N] [--seed S] [--check] FILE|DIR...
With --check the exit status is 1 if a mutant is accepted inside a def or
class, or if kiln crashes.
"""
import argparse
import ast
import os
import random
import re
import subprocess
import sys
import tempfile
import warnings

# Bytes that tend to break a tokenizer, and printable ASCII.
INTERESTING = [0x00, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF8, 0xFF,
               ord('\r'), ord('\n'), ord('\t'), ord('\f'), ord('\\'),
               ord('('), ord(')'), ord('['), ord(']'), ord('"'), ord("'"),
               ord('#'), ord('@'), ord(':'), ord(' '), ord('0')]


def example_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in sorted(os.walk(p)):
                for n in sorted(names):
                    if n.endswith('.py'):
                        yield os.path.join(root, n)
        else:
            yield p


def item_lines(src):
    """1-based line ranges of the top-level defs and classes."""
    ranges = []
    for node in ast.parse(src).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            ranges.append((first, node.end_lineno))
    return ranges


def cpython_accepts(data):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile(data, 'mutant.py', 'exec')
            return True
        except (SyntaxError, ValueError):
            return False


def run_kiln(kiln, path, emit):
    p = subprocess.run([kiln, 'compile', path, '--emit=' + emit],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    return p.returncode, p.stdout.decode('utf-8', 'replace')


def skipped_from(ast_text):
    """{first line of a skipped def: line of the construct that stopped it}."""
    return {int(first): int(at) for first, at in re.findall(
        r"^Skipped function '\w+' @(\d+):\d+: .* \(at (\d+):\d+\)$",
        ast_text, re.M)}


def is_inside(line, ranges, skipped):
    return any(a <= line <= b and line < skipped.get(a, b + 1)
               for a, b in ranges)


def parsed_items(ast_text):
    return sorted(re.findall(r'^(?:FunctionDef|ClassDef) (\S+)', ast_text,
                             re.M))


def mutate(rng, data):
    pos = rng.randrange(len(data))
    byte = rng.choice(INTERESTING) if rng.random() < 0.6 else rng.randrange(
        0x20, 0x7F)
    op = rng.choice(['replace', 'replace', 'insert', 'delete'])
    if op == 'replace':
        return data[:pos] + bytes([byte]) + data[pos + 1:], pos, op, byte
    if op == 'insert':
        return data[:pos] + bytes([byte]) + data[pos:], pos, op, byte
    return data[:pos] + data[pos + 1:], pos, op, data[pos]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kiln', required=True)
    ap.add_argument('--count', type=int, default=200)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--keep', help='a directory to copy reported mutants to')
    ap.add_argument('paths', nargs='+')
    args = ap.parse_args()

    files = []
    for path in example_files(args.paths):
        data = open(path, 'rb').read()
        uses_script = b'@torch.jit.script' in data and \
            run_kiln(args.kiln, path, 'ir')[0] == 0
        emit = 'ir' if uses_script else 'ast'
        ast_text = run_kiln(args.kiln, path, 'ast')[1]
        ranges = item_lines(data.decode())
        files.append((path, data, ranges, skipped_from(ast_text), emit,
                      parsed_items(ast_text)))

    rng = random.Random(args.seed)
    counts = {'mutants': 0, 'rejected by cpython': 0, 'accepted inside': 0,
              'accepted outside': 0, 'crashes': 0}
    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.count):
            path, data, ranges, skipped, emit, baseline = files[i % len(files)]
            mutant, pos, op, byte = mutate(rng, data)
            counts['mutants'] += 1
            if cpython_accepts(mutant):
                continue
            counts['rejected by cpython'] += 1
            mpath = os.path.join(tmp, os.path.basename(path))
            with open(mpath, 'wb') as f:
                f.write(mutant)
            rc, out = run_kiln(args.kiln, mpath, emit)
            line = data.count(b'\n', 0, pos) + 1
            what = '%s:%d: %s 0x%02x at byte %d (mutant %d)' % (
                path, line, op, byte, pos, i)
            if rc not in (0, 1):
                counts['crashes'] += 1
                reports.append('crash (exit %d): %s' % (rc, what))
                continue
            accepted = rc == 0 if emit == 'ir' else \
                parsed_items(out) == baseline
            if not accepted:
                continue
            inside = is_inside(line, ranges, skipped)
            key = 'accepted inside' if inside else 'accepted outside'
            counts[key] += 1
            reports.append('%s: %s' % (key, what))
            if args.keep:
                keep = os.path.join(args.keep, '%d-%s' % (i, os.path.basename(path)))
                with open(keep, 'wb') as f:
                    f.write(mutant)
    for r in reports:
        print(r)
    print(', '.join('%s: %d' % kv for kv in counts.items()))
    # Top-level code that kiln skips is parsed for syntax errors too, but a
    # construct kiln does not support there can hide a later one, so only
    # the compiled code and crashes fail the check.
    bad = counts['accepted inside'] + counts['crashes']
    return 1 if args.check and bad else 0


if __name__ == '__main__':
    sys.exit(main())
