#!/usr/bin/python3
"""Each function of kiln's prelude (frontend/prelude/*.py) against the torch
op it stands for, in eager PyTorch: the decompositions are checked alone,
before kiln compiles them (test/ops checks the compiled ones through the op
table).

Three sets of cases:
  - every sample of every `@op` row (kiln_table.py records them when the
    prelude is imported), in float64 so that a wrong formula cannot hide
    behind float32 rounding; the op it replaces is torch.X, F.X or Tensor.X,
    whichever spelling the row has;
  - the forward of each torch.nn module in modules.py, run on a real
    module and compared with that module's own forward;
  - the hand-written cases below, for inputs a sample cannot spell
    (-inf, NaN under beta=0, class weights).
It also checks that kiln reads the same rows: `kiln ops --json` must list
every row with the schema and spellings the decorators give.

Usage: prelude_eager.py PRELUDE_DIR KILN
Prints `ok NAME (max diff D)` per case and `all ok: N cases`, or FAILED.
"""
import importlib.util
import json
import math
import os
import subprocess
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
import run_eager  # noqa: E402

# The dims of a sample's dynamic sizes, as test/ops's first dim set.
DIMS = {"B": 3, "N": 4, "T": 5}


def load(directory):
    """kiln_table and every prelude file, as modules."""
    sys.path.insert(0, directory)
    import kiln_table
    mods = {}
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".py") or name == "kiln_table.py":
            continue
        spec = importlib.util.spec_from_file_location(
            "kiln_prelude_" + name[:-3], os.path.join(directory, name))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mods[name] = mod
    return kiln_table, mods


def reference(name, spellings, table):
    if spellings & table.MATH:
        return getattr(math, name)
    if spellings & table.FUNCTIONAL:
        return getattr(F, name)
    if spellings & table.TORCH:
        return getattr(torch, name)
    return lambda self, *a, **k: getattr(self, name)(*a, **k)


def sample_inputs(inputs, lo, hi, g):
    """The sample's tensors in float64 (ints stay ints, drawn from [0, 5),
    as test/ops draws them)."""
    env = {}
    for arg, (dtype, shape) in run_eager.parse_spec_text(inputs).items():
        sizes = [d if isinstance(d, int) else DIMS.get(d, 2) for d in shape]
        td = run_eager.DTYPES[dtype]
        if td.is_floating_point:
            env[arg] = (torch.rand(sizes, generator=g, dtype=torch.float64)
                        * (hi - lo) + lo)
        elif td == torch.bool:
            env[arg] = torch.randint(0, 2, sizes, generator=g).bool()
        else:
            env[arg] = torch.randint(0, 5, sizes, generator=g).to(td)
    return env


def row_cases(table, g):
    for row in table.ROWS:
        if not row["lowered_by_function"] or row["random"]:
            continue  # a kiln op, a C++ builder or random values: test/ops
        fn = row["function"]
        # The function may be named apart from its op: F.softmax and
        # torch.softmax are two rows with two functions.
        name = fn.__name__
        ref = reference(row["schema"].split("(")[0], row["spellings"], table)
        for k, sample in enumerate(row["samples"]):
            inputs, args = sample[0], sample[1] if len(sample) > 1 else ""
            lo = sample[2] if len(sample) > 2 else -1.0
            hi = sample[3] if len(sample) > 3 else 1.0
            env = sample_inputs(inputs, lo, hi, g)
            first = next(iter(env))
            call = "(%s%s)" % (first, ", " + args if args else "")
            pos, kw = eval("(lambda *a, **k: (a, k))" + call,
                           {"torch": torch, "math": math}, env)
            if row["spellings"] & table.MATH:
                # math.X takes Python numbers: the sample's 0-d tensor is one.
                pos = tuple(a.item() if isinstance(a, torch.Tensor) else a
                            for a in pos)
            yield "%s sample %d" % (name, k), fn, ref, pos, kw


def check_catalog(table, kiln):
    """kiln reads the decorators as the eager registry does."""
    rows = json.loads(subprocess.run([kiln, "ops", "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    bits = {"torch.": table.TORCH, "Tensor.": table.METHOD,
            "F.": table.FUNCTIONAL, "math.": table.MATH}
    ok = True
    key = lambda schema: schema.replace(" ", "")
    by_schema = {key(r["schema"]): r for r in rows}
    for row in table.ROWS:
        found = by_schema.get(key(row["schema"]))
        spelled = 0
        for s in found["spellings"] if found else []:
            for prefix, bit in bits.items():
                if s.startswith(prefix):
                    spelled |= bit
            if s.startswith("Tensor.") and s.endswith("_"):
                spelled |= table.INPLACE
        if found and found["f_inplace_arg"]:
            spelled |= table.F_INPLACE_ARG
        if found and found["random"] != row["random"]:
            print("FAILED catalog %s: kiln has random=%s, the decorator %s"
                  % (row["schema"], found["random"], row["random"]))
            ok = False
        if not found or spelled != row["spellings"]:
            print("FAILED catalog %s: kiln has %s with spellings %d, the "
                  "decorator says %d" % (row["schema"], found and
                                         found["spellings"], spelled,
                                         row["spellings"]))
            ok = False
    print("%s catalog: %d rows" % ("ok" if ok else "FAILED", len(table.ROWS)))
    return ok


def cases(g):
    """(name, prelude function, torch function, args, kwargs)."""
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)
    u = lambda *s: torch.rand(*s, generator=g, dtype=torch.float64) * 0.98 + 0.01
    idx = lambda hi, *s: torch.randint(0, hi, s, generator=g)
    x, y = r(4, 6), r(4, 6)
    yield "glu", "glu", F.glu, (x,), {}
    yield "glu dim 0", "glu", F.glu, (r(4, 3), 0), {}
    yield "logsumexp", "logsumexp", torch.logsumexp, (x, 1), {}
    yield "logsumexp dims", "logsumexp", torch.logsumexp, (r(3, 4, 5), (0, 2), True), {}
    inf = torch.tensor([[float("-inf")] * 3, [1.0, 2.0, float("-inf")]])
    yield "logsumexp -inf", "logsumexp", torch.logsumexp, (inf, 1), {}
    yield "softmin", "softmin", F.softmin, (x, 1), {}
    ties = torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999999999999994,
                         float("inf"), float("-inf"), float("nan")])
    yield "round ties", "round", torch.round, (ties,), {}
    yield "round ties decimals", "round", torch.round, (ties * 0.1,), {"decimals": 1}
    yield "sign nan", "sign", torch.sign, (ties,), {}
    for p in (2.0, 1.0, 3.0):
        yield "normalize p=%g" % p, "normalize", F.normalize, (x, p, 0), {}
        yield "pairwise_distance p=%g" % p, "pairwise_distance", F.pairwise_distance, (x, y, p), {"keepdim": p == 1.0}
    yield "cosine_similarity", "cosine_similarity", F.cosine_similarity, (x, y), {}
    yield "cosine_similarity broadcast", "cosine_similarity", F.cosine_similarity, (r(2, 1, 4), r(3, 4), -1), {}
    yield "addmm", "addmm", torch.addmm, (r(3, 4), r(3, 5), r(5, 4)), {"beta": 0.5, "alpha": 2.0}
    nan = torch.full((3, 4), float("nan"), dtype=torch.float64)
    yield "addmm beta=0", "addmm", torch.addmm, (nan, r(3, 5), r(5, 4)), {"beta": 0}
    yield "baddbmm", "baddbmm", torch.baddbmm, (r(2, 3, 4), r(2, 3, 5), r(2, 5, 4)), {"beta": 2.0, "alpha": 0.5}
    yield "group_norm", "group_norm", F.group_norm, (r(2, 6, 3, 3), 3, r(6), r(6)), {}
    yield "group_norm 2-d", "group_norm", F.group_norm, (r(2, 6), 2), {"eps": 1e-3}
    yield "instance_norm", "instance_norm", F.instance_norm, (r(2, 3, 4, 4),), {"weight": r(3), "bias": r(3)}
    yield "instance_norm running", "instance_norm", F.instance_norm, (r(2, 3, 5), r(3), u(3)), {"use_input_stats": False}
    for red in ("mean", "sum", "none"):
        yield "mse_loss " + red, "mse_loss", F.mse_loss, (x, y), {"reduction": red}
        yield "l1_loss " + red, "l1_loss", F.l1_loss, (x, y), {"reduction": red}
        for beta in (1.0, 0.5, 0.0):
            yield "smooth_l1_loss %s %g" % (red, beta), "smooth_l1_loss", F.smooth_l1_loss, (x * 2, y), {"reduction": red, "beta": beta}
        yield "binary_cross_entropy " + red, "binary_cross_entropy", F.binary_cross_entropy, (u(4, 6), u(4, 6), u(6)), {"reduction": red}
        yield "kl_div " + red, "kl_div", F.kl_div, (x, u(4, 6)), {"reduction": red}
        yield "kl_div log " + red, "kl_div", F.kl_div, (x, y), {"reduction": red, "log_target": True}
    yield "kl_div batchmean", "kl_div", F.kl_div, (x, u(4, 6)), {"reduction": "batchmean"}
    c = r(6, 5)
    t = idx(5, 6)
    w = u(5)
    for red in ("mean", "sum", "none"):
        for kw in ({}, {"weight": w}, {"ignore_index": 2}, {"weight": w, "ignore_index": 1}):
            name = "%s %s %s" % (red, ",".join(sorted(kw)), "")
            yield "nll_loss " + name, "nll_loss", F.nll_loss, (torch.log_softmax(c, 1), t), dict(kw, reduction=red)
            yield "nll_loss k-dim " + name, "nll_loss", F.nll_loss, (r(2, 5, 3, 4), idx(5, 2, 3, 4)), dict(kw, reduction=red)
            yield "nll_loss 1-d " + name, "nll_loss", F.nll_loss, (r(5), idx(5)), dict(kw, reduction=red)
            for ls in (0.0, 0.2):
                kws = dict(kw, reduction=red, label_smoothing=ls)
                yield "cross_entropy %s ls=%g" % (name, ls), "cross_entropy", F.cross_entropy, (c, t), kws
                yield "cross_entropy k-dim %s ls=%g" % (name, ls), "cross_entropy", F.cross_entropy, (r(2, 5, 3, 4), idx(5, 2, 3, 4)), kws
                yield "cross_entropy 1-d %s ls=%g" % (name, ls), "cross_entropy", F.cross_entropy, (r(5), idx(5)), kws


def module_cases(modules, g):
    """Each forward of modules.py run on a real torch.nn module, against
    that module's own forward in eval mode; every class must have a case."""
    nn = torch.nn
    r = lambda *s: torch.randn(*s, generator=g, dtype=torch.float64)
    bn = nn.BatchNorm2d(3).double()
    bn.running_mean.copy_(r(3))
    bn.running_var.copy_(r(3).abs() + 0.5)
    cases = [
        (nn.Linear(4, 3), r(2, 4)),
        (nn.Linear(4, 3, bias=False), r(5, 2, 4)),
        (nn.Conv2d(3, 4, 3, stride=2, padding=1), r(2, 3, 7, 7)),
        (nn.Conv2d(4, 4, 3, padding="same", groups=2, bias=False), r(1, 4, 5, 6)),
        (nn.MaxPool2d(2), r(2, 3, 6, 6)),
        (nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True), r(1, 2, 7, 7)),
        (nn.AvgPool2d(2), r(2, 3, 6, 6)),
        (nn.AvgPool2d(3, 2, 1, count_include_pad=False), r(1, 2, 7, 7)),
        (nn.AdaptiveAvgPool2d((2, 3)), r(2, 3, 7, 8)),
        (bn, r(2, 3, 4, 4)),
        (nn.LayerNorm(5), r(2, 3, 5)),
        (nn.Embedding(10, 4), torch.randint(0, 10, (3, 2), generator=g)),
        (nn.GELU(approximate="tanh"), r(4, 5)),
        (nn.GELU(), r(4, 5)),
        (nn.ReLU(), r(4, 5)),
        (nn.SiLU(), r(4, 5)),
        (nn.Tanh(), r(4, 5)),
        (nn.Sigmoid(), r(4, 5)),
        (nn.Dropout(0.3), r(4, 5)),
        (nn.Identity(), r(4, 5)),
    ] + more_module_cases(r, g)
    classes = {n for n, v in vars(modules).items()
               if isinstance(v, type) and issubclass(v, nn.Module)
               and v.__module__ == modules.__name__}
    missing = classes - {type(m).__name__ for m, _ in cases}
    if missing:
        raise SystemExit("FAILED: no case for %s" % sorted(missing))
    for k, (module, x) in enumerate(cases):
        module = module.double().eval()
        cls = getattr(modules, type(module).__name__)
        inputs = x if isinstance(x, tuple) else (x,)  # CosineSimilarity: 2
        yield ("%s.forward %d" % (type(module).__name__, k),
               lambda *x, m=module, c=cls: c.forward(m, *x), module, inputs,
               {})


def more_module_cases(r, g):
    """The modules beyond the first ones, with non-default options; a tuple
    holds the inputs of a forward that takes several."""
    nn = torch.nn
    bn1, bn3, inorm = nn.BatchNorm1d(3), nn.BatchNorm3d(2), nn.InstanceNorm2d(
        3, affine=True, track_running_stats=True)
    for m in (bn1, bn3, inorm):
        m.double()
        m.running_mean.copy_(r(m.num_features))
        m.running_var.copy_(r(m.num_features).abs() + 0.5)
    prelu = nn.PReLU(3).double()
    with torch.no_grad():
        prelu.weight.copy_(r(3))
        inorm.weight.copy_(r(3))
        inorm.bias.copy_(r(3))
    return [
        (nn.LeakyReLU(0.2), r(4, 5)),
        (nn.LeakyReLU(), r(4, 5)),
        (nn.Hardtanh(-2.0, 0.5), r(4, 5)),
        (nn.ReLU6(), r(4, 5) * 5),
        (nn.Hardswish(), r(4, 5) * 4),
        (nn.Hardsigmoid(), r(4, 5) * 4),
        (nn.ELU(0.5), r(4, 5)),
        (nn.CELU(1.5), r(4, 5)),
        (nn.SELU(), r(4, 5)),
        (nn.Mish(), r(4, 5)),
        (nn.Softplus(beta=2, threshold=1), r(4, 5)),
        (nn.LogSigmoid(), r(4, 5)),
        (nn.Softsign(), r(4, 5)),
        (nn.Tanhshrink(), r(4, 5)),
        (nn.Hardshrink(0.3), r(4, 5)),
        (nn.Softshrink(0.3), r(4, 5)),
        (nn.Threshold(0.1, -2.0), r(4, 5)),
        (prelu, r(2, 3, 4)),
        (nn.PReLU(init=0.1), r(2, 3, 4)),
        (nn.GLU(dim=1), r(3, 4, 5)),
        (nn.Softmax(dim=1), r(3, 4, 5)),
        (nn.LogSoftmax(dim=-1), r(3, 4)),
        (nn.Softmin(dim=0), r(3, 4)),
        (nn.Softmax2d(), r(2, 3, 4, 5)),
        (nn.Flatten(), r(2, 3, 4, 5)),
        (nn.Flatten(0, 2), r(2, 3, 4, 5)),
        (nn.Unflatten(1, (2, 6)), r(3, 12)),
        (nn.Dropout1d(0.2), r(2, 3, 4)),
        (nn.Dropout2d(), r(2, 3, 4, 5)),
        (nn.Dropout3d(), r(2, 3, 4, 5, 2)),
        (nn.AlphaDropout(0.1), r(4, 5)),
        (nn.FeatureAlphaDropout(0.1), r(2, 3, 4)),
        (nn.GroupNorm(2, 4), r(2, 4, 3, 3)),
        (nn.GroupNorm(3, 6, eps=1e-3, affine=False), r(2, 6, 5)),
        (bn1, r(5, 3)),
        (bn1, r(5, 3, 4)),
        (bn3, r(2, 2, 3, 4, 5)),
        (nn.InstanceNorm1d(3), r(2, 3, 6)),
        (nn.InstanceNorm1d(3), r(3, 6)),
        (inorm, r(2, 3, 4, 5)),
        (inorm, r(3, 4, 5)),
        (nn.InstanceNorm3d(2, affine=True), r(2, 2, 3, 4, 5)),
        (nn.PixelShuffle(2), r(2, 8, 3, 4)),
        (nn.PixelUnshuffle(2), r(2, 2, 4, 6)),
        (nn.Upsample(scale_factor=2.0), r(2, 3, 4, 5)),
        (nn.Upsample(size=7, mode="bilinear", align_corners=False), r(2, 3, 4, 5)),
        (nn.UpsamplingNearest2d(size=6), r(2, 3, 4, 5)),
        (nn.UpsamplingBilinear2d(scale_factor=2), r(2, 3, 4, 5)),
        (nn.ConstantPad1d((1, 2), 3.5), r(2, 3, 4)),
        (nn.ConstantPad2d(1, -1.0), r(2, 3, 4)),
        (nn.ConstantPad3d((1, 0, 2, 1, 0, 1), 0.5), r(1, 2, 3, 4, 5)),
        (nn.ZeroPad2d((1, 2, 0, 3)), r(2, 3, 4, 5)),
        (nn.ReflectionPad1d(2), r(2, 3, 4)),
        (nn.ReflectionPad2d((1, 2, 2, 1)), r(2, 3, 4, 5)),
        (nn.ReflectionPad3d(1), r(1, 2, 3, 4, 5)),
        (nn.ReplicationPad1d((3, 1)), r(2, 3, 4)),
        (nn.ReplicationPad2d(2), r(2, 3, 4, 5)),
        (nn.ReplicationPad3d((1, 2, 0, 1, 2, 0)), r(1, 2, 3, 4, 5)),
        (nn.CosineSimilarity(), (r(3, 4, 5), r(3, 4, 5))),
        (nn.CosineSimilarity(dim=-1, eps=1e-4), (r(3, 5), r(1, 5))),
        (nn.PairwiseDistance(), (r(3, 5), r(3, 5))),
        (nn.PairwiseDistance(p=1.0, keepdim=True), (r(3, 5), r(3, 5))),
    ] + loss_cases(r, g)


def loss_cases(r, g):
    nn = torch.nn
    prob = lambda *s: torch.rand(*s, generator=g, dtype=torch.float64)
    idx = lambda *s: torch.randint(0, 4, s, generator=g)
    w = prob(4) + 0.5
    return [
        (nn.L1Loss(), (r(3, 4), r(3, 4))),
        (nn.MSELoss(reduction="sum"), (r(3, 4), r(3, 4))),
        (nn.SmoothL1Loss(reduction="none", beta=0.5), (r(3, 4), r(3, 4))),
        (nn.BCELoss(), (prob(3, 4), prob(3, 4))),
        (nn.BCELoss(weight=w, reduction="sum"), (prob(3, 4), prob(3, 4))),
        (nn.KLDivLoss(reduction="batchmean"), (r(3, 4), prob(3, 4))),
        (nn.KLDivLoss(log_target=True), (r(3, 4), r(3, 4))),
        (nn.NLLLoss(), (r(5, 4), idx(5))),
        (nn.NLLLoss(weight=w, ignore_index=2), (r(5, 4), idx(5))),
        (nn.CrossEntropyLoss(), (r(5, 4), idx(5))),
        (nn.CrossEntropyLoss(weight=w, label_smoothing=0.1, reduction="sum"),
         (r(5, 4), idx(5))),
    ]


def all_cases(table, mods, g):
    yield from row_cases(table, g)
    yield from module_cases(mods["modules.py"], g)
    functions = {}
    for mod in mods.values():
        functions.update(vars(mod))
    for name, fn, ref, args, kwargs in cases(g):
        yield name, functions[fn], ref, args, kwargs


def main():
    table, mods = load(sys.argv[1])
    g = torch.Generator().manual_seed(0)
    ok, n = check_catalog(table, sys.argv[2]), 0
    for name, fn, ref, args, kwargs in all_cases(table, mods, g):
        n += 1
        expected = ref(*args, **kwargs)
        actual = fn(*args, **kwargs)
        # split and chunk give tuples of tensors, math.X Python numbers.
        if isinstance(expected, (tuple, list)):
            pairs = list(zip(expected, actual))
            same = (isinstance(actual, (tuple, list))
                    and len(expected) == len(actual))
        else:
            pairs, same = [(expected, actual)], True
        diff = 0.0
        for e, a in pairs:
            if not isinstance(e, torch.Tensor):
                e, a = torch.tensor(e), torch.tensor(a)
            same = same and (e.shape == a.shape and e.dtype == a.dtype
                             and torch.allclose(e, a, rtol=1e-9, atol=1e-12,
                                                equal_nan=True))
            if e.shape == a.shape and e.numel():
                diff = max(diff, (e.double() - a.double()).abs()
                           .nan_to_num(0).max().item())
        print("%s %s (max diff %.3g)" % ("ok" if same else "FAILED", name, diff))
        ok &= same
    print("%s: %d cases" % ("all ok" if ok else "FAILED", n))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
