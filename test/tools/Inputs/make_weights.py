#!/usr/bin/python3
"""Writes safetensors files for LeNet's weight tests into OUT_DIR:

  good.safetensors       LeNet's state_dict(), as a user saves it
  mismatched.safetensors fc3.bias missing, fc4.weight unexpected, fc1.weight
                         of the wrong shape, conv1.bias in f16
  truncated.safetensors  good.safetensors without its last 100 bytes
  offsets.safetensors    good.safetensors whose header points fc3.bias past
                         the end of the file

Usage: make_weights.py LENET.py OUT_DIR
"""
import importlib.util
import json
import os
import struct
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Inputs"))
import save_state_dict  # noqa: E402

path, out = sys.argv[1:3]
save_state_dict.add_python_deps()
spec = importlib.util.spec_from_file_location("lenet", path)
lenet = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lenet)
torch.manual_seed(0)
state = lenet.Net().state_dict()


def write(name, tensors):
    save_state_dict.save(tensors, os.path.join(out, name + ".safetensors"))


write("good", state)
mismatched = dict(state)
del mismatched["fc3.bias"]
mismatched["fc4.weight"] = torch.zeros(10, 84)
mismatched["fc1.weight"] = torch.zeros(120, 400)
mismatched["conv1.bias"] = state["conv1.bias"].half()
write("mismatched", mismatched)

with open(os.path.join(out, "good.safetensors"), "rb") as f:
    data = f.read()
with open(os.path.join(out, "truncated.safetensors"), "wb") as f:
    f.write(data[:-100])
length = struct.unpack("<Q", data[:8])[0]
header = json.loads(data[8:8 + length])
header["fc3.bias"]["data_offsets"] = [10**9, 10**9 + 40]
text = json.dumps(header).encode()
with open(os.path.join(out, "offsets.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(text)) + text + data[8 + length:])
