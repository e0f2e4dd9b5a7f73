#!/usr/bin/python3
"""Each function of kiln's prelude (frontend/prelude/*.py) against the torch
op it stands for, in eager PyTorch, on random inputs: the decompositions
are checked alone, before kiln compiles them (test/ops checks the compiled
ones through the op table).

Usage: prelude_eager.py PRELUDE_DIR
Prints `ok NAME (max diff D)` per case and `all ok: N cases`, or FAILED.
"""
import importlib.util
import os
import sys

import torch
import torch.nn.functional as F


def load(directory):
    path = os.path.join(directory, "nn.py")
    spec = importlib.util.spec_from_file_location("kiln_prelude_nn", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


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


def main():
    prelude = load(sys.argv[1])
    g = torch.Generator().manual_seed(0)
    ok, n = True, 0
    for name, fn, ref, args, kwargs in cases(g):
        n += 1
        expected = ref(*args, **kwargs)
        actual = getattr(prelude, fn)(*args, **kwargs)
        same = (expected.shape == actual.shape and expected.dtype == actual.dtype
                and torch.allclose(expected, actual, rtol=1e-9, atol=1e-12,
                                   equal_nan=True))
        diff = (expected - actual).abs().nan_to_num(0).max().item() if expected.shape == actual.shape and expected.numel() else 0.0
        print("%s %s (max diff %.3g)" % ("ok" if same else "FAILED", name, diff))
        ok &= same
    print("%s: %d cases" % ("all ok" if ok else "FAILED", n))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
