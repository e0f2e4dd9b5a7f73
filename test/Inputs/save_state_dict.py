#!/usr/bin/python3
"""Saves a module's state_dict as safetensors, for tests of `--weights`.

Usage: save_state_dict.py SCRIPT CLASS OUT [--seed N] [--deps DIR]

  Imports SCRIPT (a .py file), builds CLASS() after torch.manual_seed(N)
  (default 0) and writes its state_dict() to OUT with
  safetensors.torch.save_file.

As a module (tests put test/Inputs on sys.path):

  import save_state_dict
  save_state_dict.add_python_deps()          # or add_python_deps(DIR)
  save_state_dict.save(module_or_dict, OUT)

`safetensors` is not a Debian package: `./dev deps` installs it from PyPI
into BUILD/python-deps, and add_python_deps puts that folder on sys.path. It
looks, in order, at the DIR argument, $KILN_PYTHON_DEPS, and
<repo>/$KILN_BUILD_DIR/python-deps ($KILN_BUILD_DIR defaults to "build", as
in ./dev).
"""
import argparse
import importlib.util
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def add_python_deps(deps=None):
    """Puts the folder holding `safetensors` first on sys.path; exits with a
    hint when it is not there."""
    if deps is None:
        deps = os.environ.get("KILN_PYTHON_DEPS") or os.path.join(
            REPO, os.environ.get("KILN_BUILD_DIR", "build"), "python-deps")
    if not os.path.isdir(os.path.join(deps, "safetensors")):
        sys.exit("save_state_dict.py: no safetensors package in %s; run "
                 "./dev deps" % deps)
    if deps not in sys.path:
        sys.path.insert(0, deps)


def save(module_or_dict, path):
    """Writes an nn.Module's state_dict(), or a dict of tensors, to `path`."""
    from safetensors.torch import save_file
    state = module_or_dict
    if hasattr(state, "state_dict"):
        state = state.state_dict()
    # save_file refuses tensors that share storage (tied weights) or are
    # not contiguous; kiln wants each name's values, however they are held.
    save_file({name: tensor.detach().clone().contiguous()
               for name, tensor in state.items()}, path)


def main():
    parser = argparse.ArgumentParser(
        description="Save CLASS()'s state_dict from SCRIPT as safetensors.")
    parser.add_argument("script")
    parser.add_argument("cls", metavar="CLASS")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deps", help="the folder holding safetensors")
    args = parser.parse_args()
    add_python_deps(args.deps)

    import torch
    spec = importlib.util.spec_from_file_location("script", args.script)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    torch.manual_seed(args.seed)
    save(getattr(script, args.cls)(), args.out)


if __name__ == "__main__":
    main()
