#!/usr/bin/python3
"""Runs the README's journey (train LeNet, compile it, build examples/cpp,
classify) exactly as the README writes it, and checks what it prints.

Usage: readme_journey.py README.md BUILD_DIR WORK_DIR [--lock FILE]
                         [-- CMAKE_FLAGS...]

The journey is every fenced block of README.md whose line above is
MARKER. In those blocks a line starting with "$ " is a command; the lines
after it, up to the next command or the fence, are the output the README
shows for it. Each command runs with bash in WORK_DIR, which stands in for
the repository root: WORK_DIR/examples links to the repository's examples/
and WORK_DIR/build to BUILD_DIR (the build whose kiln, runtime and
python-deps the test uses). The checks:

  * every command exits with status 0;
  * where the README shows output, the command printed the same lines with
    every number allowed to differ (training and float results vary a
    little between CPUs; the text and the number of lines may not);
  * the classes kiln-classify prints equal the true labels the training
    script saved (labels.npy), and the classes the README shows;
  * its logits equal eager PyTorch's, Net with the trained net.safetensors
    run on the same images.npy, within ATOL + RTOL * max(1, |eager|):
    ATOL covers the 4 decimals kiln-classify prints (rounding is at most
    5e-5), and RTOL the float32 rounding of sums of up to 576 products
    that kiln and PyTorch's kernels add in different orders (measured at
    most 7e-6 relative on 512 random images);
  * the last held-out accuracy the training prints is at least
    MIN_ACCURACY percent.

CMAKE_FLAGS (lit's %app_cmake_flags: a sanitized runtime needs the app
built with the same compiler and sanitizers) become CXX, CXXFLAGS and
LDFLAGS in the commands' environment, which CMake reads when it first
configures a build folder, so the commands stay as written. With --lock,
cmake commands run under `flock FILE`, so that they wait for any other
build holding it.

Prints each command, its output and the results of the checks; exits 1 if
any check fails.
"""
import os
import re
import subprocess
import sys

MARKER = "<!-- test/examples/readme.test runs the commands below -->"
MIN_ACCURACY = 98.0
ATOL = 5e-5
RTOL = 2e-5
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
CLASSIFY_LINE = re.compile(r"image (\d+): class (\d+), logits \[(.*)\]$")


def journey(readme):
    """[(command, [shown output lines])] from the README's marked blocks."""
    lines = open(readme, encoding="utf-8").read().splitlines()
    steps = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != MARKER:
            i += 1
            continue
        i += 1
        if i >= len(lines) or not lines[i].startswith("```"):
            sys.exit("%s:%d: the journey marker must sit right above a "
                     "fenced block" % (readme, i))
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            if lines[i].startswith("$ "):
                steps.append((lines[i][2:], []))
            elif not steps:
                sys.exit("%s:%d: output before any command" % (readme, i + 1))
            else:
                steps[-1][1].append(lines[i])
            i += 1
    if not steps:
        sys.exit("%s: no journey commands (no block below %r)" %
                 (readme, MARKER))
    return steps


def shape_of(text_lines):
    return [NUMBER.sub("N", line.rstrip()) for line in text_lines]


def parse_classify(lines):
    rows = []
    for line in lines:
        m = CLASSIFY_LINE.match(line.strip())
        if m:
            rows.append((int(m.group(2)),
                         [float(v) for v in m.group(3).split(",")]))
    return rows


def main():
    args = sys.argv[1:]
    cmake_flags = []
    if "--" in args:
        cmake_flags = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    lock = None
    if "--lock" in args:
        at = args.index("--lock")
        lock = args[at + 1]
        del args[at:at + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    readme, build, work = (os.path.abspath(a) for a in args)
    repo = os.path.dirname(readme)

    os.makedirs(work, exist_ok=True)
    for name, target in (("examples", os.path.join(repo, "examples")),
                         ("build", build)):
        link = os.path.join(work, name)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(target, link)

    env = dict(os.environ, PWD=work)
    cmake_env = {"CMAKE_CXX_COMPILER": "CXX", "CMAKE_CXX_FLAGS": "CXXFLAGS",
                 "CMAKE_EXE_LINKER_FLAGS": "LDFLAGS"}
    for flag in cmake_flags:
        m = re.match(r"-D(\w+)=(.*)$", flag)
        if not m or m.group(1) not in cmake_env:
            sys.exit("readme_journey.py: unexpected CMake flag %r" % flag)
        env[cmake_env[m.group(1)]] = m.group(2)

    failures = []
    outputs = {}
    for command, shown in journey(readme):
        print("$ " + command)
        sys.stdout.flush()
        argv = ["bash", "-c", command]
        if lock and command.startswith("cmake "):
            argv = ["flock", "-w", "600", lock] + argv
        result = subprocess.run(argv, cwd=work, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        out = result.stdout.splitlines()
        outputs[command] = out
        if shown:
            print("\n".join(out))
        else:
            print("(%d lines of output; the README shows none)" % len(out))
        if result.returncode != 0:
            if not shown:
                print("\n".join(out))
            print("FAILED: exit status %d" % result.returncode)
            return 1
        if shown and shape_of(out) != shape_of(shown):
            failures.append("the output of `%s` differs from the README's "
                            "beyond its numbers:\n  README: %s\n  actual: %s"
                            % (command, "\n          ".join(shown),
                               "\n          ".join(out)))

    # The training script's held-out accuracy.
    accuracies = [float(m) for line in sum(outputs.values(), [])
                  for m in re.findall(r"held-out accuracy ([\d.]+)%", line)]
    if not accuracies:
        failures.append("no command printed a held-out accuracy")
    else:
        print("held-out accuracy: %.2f%% (at least %.1f%% required)" %
              (accuracies[-1], MIN_ACCURACY))
        if accuracies[-1] < MIN_ACCURACY:
            failures.append("held-out accuracy %.2f%% < %.1f%%" %
                            (accuracies[-1], MIN_ACCURACY))

    # kiln-classify's classes and logits against the labels and PyTorch.
    classify = [(c, shown) for c, shown in journey(readme)
                if "kiln-classify" in c]
    if len(classify) != 1:
        failures.append("expected one kiln-classify command, found %d" %
                        len(classify))
    else:
        command, shown = classify[0]
        rows = parse_classify(outputs[command])
        shown_rows = parse_classify(shown)
        failures += check_classify(work, rows, shown_rows)

    for failure in failures:
        print("FAILED: " + failure)
    if not failures:
        print("README journey ok")
    return 1 if failures else 0


def check_classify(work, rows, shown_rows):
    import numpy as np
    import torch
    deps = os.path.join(work, "build", "python-deps")
    sys.path.insert(0, deps)
    sys.path.insert(0, os.path.join(work, "examples", "models"))
    from safetensors.torch import load_file
    from lenet import Net

    failures = []
    labels = np.load(os.path.join(work, "labels.npy")).tolist()
    classes = [c for c, _ in rows]
    print("labels:         %s" % " ".join(map(str, labels)))
    print("kiln-classify:  %s" % " ".join(map(str, classes)))
    print("README shows:   %s" % " ".join(str(c) for c, _ in shown_rows))
    if classes != labels:
        failures.append("kiln-classify's classes %s are not the labels %s" %
                        (classes, labels))
    if [c for c, _ in shown_rows] != classes:
        failures.append("the README shows classes %s, kiln-classify printed %s"
                        % ([c for c, _ in shown_rows], classes))

    net = Net()
    net.load_state_dict(load_file(os.path.join(work, "net.safetensors")))
    net.eval()
    images = torch.from_numpy(np.load(os.path.join(work, "images.npy")))
    with torch.no_grad():
        eager = net(images).numpy()
    printed = np.array([logits for _, logits in rows], dtype=np.float64)
    if printed.shape != eager.shape:
        failures.append("kiln-classify printed logits of shape %s, eager "
                        "PyTorch's are %s" % (printed.shape, eager.shape))
        return failures
    diff = np.abs(printed - eager)
    bound = ATOL + RTOL * np.maximum(1.0, np.abs(eager))
    print("max |kiln-classify - eager| = %.3g (bound %.3g + %.3g * "
          "max(1, |eager|); largest |eager| logit %.3g)" %
          (diff.max(), ATOL, RTOL, np.abs(eager).max()))
    if (diff > bound).any():
        b, c = np.unravel_index(np.argmax(diff - bound), diff.shape)
        failures.append("image %d logit %d: kiln-classify printed %.4f, "
                        "eager PyTorch computes %.6f" %
                        (b, c, printed[b, c], eager[b, c]))
    if (eager.argmax(1) != np.array(classes)).any():
        failures.append("eager PyTorch's classes %s differ from "
                        "kiln-classify's" % eager.argmax(1).tolist())
    return failures


if __name__ == "__main__":
    sys.exit(main())
