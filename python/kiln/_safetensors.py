"""Writing safetensors files without the safetensors package.

The format (https://github.com/huggingface/safetensors, "Format"): an
8-byte little-endian header length N, N bytes of JSON mapping each tensor's
name to {"dtype", "shape", "data_offsets": [begin, end]} (offsets into the
data that follows, in bytes), then the raw little-endian data. Debian has
no python3-safetensors, and the format is this small, so kiln writes it
itself and needs nothing beyond torch.
"""
import json
import struct

import torch

_DTYPES = {
    torch.float32: "F32", torch.float64: "F64", torch.float16: "F16",
    torch.bfloat16: "BF16", torch.int64: "I64", torch.int32: "I32",
    torch.int16: "I16", torch.int8: "I8", torch.uint8: "U8",
    torch.bool: "BOOL",
}


def _raw_bytes(tensor):
    t = tensor.detach().to("cpu").contiguous()
    if t.dtype == torch.bfloat16:  # numpy has no bfloat16: same bits as int16
        t = t.view(torch.int16)
    return t.numpy().tobytes()


def save(tensors, path):
    """Writes a dict of name -> tensor to `path`, in the dict's order."""
    header, chunks, offset = {}, [], 0
    for name, tensor in tensors.items():
        if tensor.dtype not in _DTYPES:
            raise TypeError("cannot store %s (%s) in safetensors"
                            % (name, tensor.dtype))
        data = _raw_bytes(tensor)
        header[name] = {"dtype": _DTYPES[tensor.dtype],
                        "shape": list(tensor.shape),
                        "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for data in chunks:
            f.write(data)
