#!/usr/bin/python3
"""Differential test of kiln.trace against eager PyTorch.

Usage: trace_check.py BIN_DIR WORK_DIR

Traces, compiles (kiln.trace) and runs (kiln.load) on sizes other than the
example's, with the example's varying dims named by `dynamic=`:
  * torchvision's resnet18 (issue 15's target), batch and image size
    dynamic, on two batch sizes and two image sizes; mobilenet_v3_small
    and efficientnet_b0 on another batch size;
  * TinyLM (trace_models.py), which torch.jit.script refuses, batch and
    sequence length dynamic;
  * a plain function;
and checks that an op kiln lacks fails as kiln.CompileError pointing at
the line of the written source. Results must match eager within 1e-4 of
the output's largest magnitude, as test/models/torchvision.test (oneDNN
and PyTorch sum convolution products in different orders; the relative
errors seen are about 1e-6). Prints one line per run, `all ok: N runs`.
"""
import os
import sys

import torch
import torchvision

import kiln

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_models  # noqa: E402

RTOL = 1e-4


def compare(label, fn, model, inputs):
    with torch.no_grad():
        want = model(*inputs)
    got = fn(*inputs)
    err = (got - want).abs().max().item() / want.abs().max().item()
    good = got.shape == want.shape and err <= RTOL
    print("%s: %s (max diff %.2e of the largest output)"
          % (label, "ok" if good else "FAILED", err))
    return good


def check(work, name, model, example, dynamic, runs):
    archive = os.path.join(work, name + ".kiln")
    source = os.path.join(work, name + ".py")
    kiln.trace(model, example, output=archive, dynamic=dynamic,
               source=source)
    with open(source) as f:
        classes = f.read().count("\nclass ")
    print("%s: traced into %d classes" % (name, classes))
    ok = True
    entry = "forward" if isinstance(model, torch.nn.Module) else name
    with kiln.load(archive) as compiled:
        for inputs in runs:
            shapes = " ".join("x".join(map(str, t.shape)) for t in inputs)
            ok &= compare("%s %s" % (name, shapes),
                          getattr(compiled, entry), model, inputs)
    return ok, len(runs)


def check_error(work):
    path = os.path.join(work, "unsupported.py")
    try:
        kiln.trace(trace_models.Unsupported(), torch.randn(2, 3),
                   output=os.path.join(work, "u.kiln"), source=path)
    except kiln.CompileError as e:
        print("unsupported op: CompileError\n%s" % e)
        return True
    print("unsupported op: FAILED (compiled)")
    return False


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    os.environ["KILN_BIN"] = os.path.join(bin_dir, "kiln")
    torch.manual_seed(0)
    ok, runs = True, 0

    resnet = torchvision.models.resnet18().eval()
    good, n = check(work, "resnet18", resnet, torch.randn(1, 3, 64, 64),
                    {"x": {0: "B", 2: "H", 3: "W"}},
                    [(torch.randn(1, 3, 64, 64),),
                     (torch.randn(2, 3, 96, 96),)])
    ok, runs = ok & good, runs + n

    # hardswish_ and hardtanh_ (F.X with inplace=True), and a forward the
    # trace types `-> NoneType` (StochasticDepth).
    for name in ("mobilenet_v3_small", "efficientnet_b0"):
        model = getattr(torchvision.models, name)().eval()
        good, n = check(work, name, model, torch.randn(1, 3, 64, 64),
                        {"x": {0: "B"}}, [(torch.randn(2, 3, 64, 64),)])
        ok, runs = ok & good, runs + n

    lm = trace_models.TinyLM().eval()
    try:
        torch.jit.script(lm)
        print("TinyLM: FAILED (torch.jit.script accepts it)")
        ok = False
    except Exception:  # noqa: BLE001 - any refusal will do
        print("TinyLM: torch.jit.script refuses it")
    good, n = check(work, "tinylm", lm, torch.randint(0, 11, (2, 5)),
                    {"idx": {0: "B", 1: "T"}},
                    [(torch.randint(0, 11, (2, 5)),),
                     (torch.randint(0, 11, (3, 9)),)])
    ok, runs = ok & good, runs + n

    fn = trace_models.gated
    good, n = check(work, "gated", fn, (torch.randn(2, 4), torch.randn(2, 3)),
                    {"x": {0: "B"}, "y": {0: "B"}},
                    [(torch.randn(5, 4), torch.randn(5, 3))])
    ok, runs = ok & good, runs + n

    ok &= check_error(work)
    print("%s: %d runs" % ("all ok" if ok else "FAILED", runs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
