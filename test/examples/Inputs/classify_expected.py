#!/usr/bin/python3
"""Writes OUT_DIR/images.npy (three seeded LeNet inputs) and prints, in
kiln-classify's format, eager PyTorch's class and logits for each image,
with the model built as save_state_dict.py builds it (manual_seed(0)).

Usage: classify_expected.py MODEL.py CLASS OUT_DIR
"""
import importlib.util
import os
import sys

import numpy as np
import torch

path, cls, out = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("model", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
torch.manual_seed(0)
model = getattr(module, cls)().eval()
images = torch.randn(3, 1, 32, 32, generator=torch.Generator().manual_seed(7))
np.save(os.path.join(out, "images.npy"), images.numpy())
with torch.no_grad():
    logits = model(images)
for b, row in enumerate(logits):
    print("image %d: class %d, logits [%s]" % (
        b, int(row.argmax()), ", ".join("%.4f" % v for v in row.tolist())))
