"""The safetensors format, written from its specification for kt's PyTorch interop tests.

Deliberately independent of kt (and of the `safetensors` package, which Debian does not ship):
8 bytes little-endian header length N, N bytes of JSON {name: {"dtype", "shape",
"data_offsets": [begin, end]}, "__metadata__": {str: str}} padded with spaces to a multiple
of 8, then the tensors' bytes back to back in header order.
"""
import json
import struct

import torch

# The format's dtype names, and a same-sized integer dtype to move the bytes through numpy
# (numpy has no bfloat16).
DTYPES = {
    torch.float64: ("F64", torch.int64), torch.float32: ("F32", torch.int32),
    torch.float16: ("F16", torch.int16), torch.bfloat16: ("BF16", torch.int16),
    torch.int64: ("I64", torch.int64), torch.int32: ("I32", torch.int32),
    torch.uint8: ("U8", torch.uint8), torch.bool: ("BOOL", torch.uint8),
}
BY_NAME = {name: dtype for dtype, (name, _) in DTYPES.items()}


def tensor_bytes(t):
    t = t.detach().contiguous().cpu()
    carrier = DTYPES[t.dtype][1]
    return (t.view(carrier) if t.dtype != torch.bool else t.to(torch.uint8)).numpy().tobytes()


def save(path, tensors, metadata=None):
    """Writes {name: tensor} in insertion order."""
    header, blobs, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = dict(metadata)
    for name, t in tensors.items():
        data = tensor_bytes(t)
        header[name] = {"dtype": DTYPES[t.dtype][0], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def load(path):
    """Returns ({name: tensor}, metadata)."""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    metadata = header.pop("__metadata__", {})
    data = blob[8 + n:]
    out = {}
    for name, info in header.items():
        begin, end = info["data_offsets"]
        dtype = BY_NAME[info["dtype"]]
        raw = bytearray(data[begin:end])
        if dtype == torch.bool:
            t = torch.frombuffer(raw, dtype=torch.uint8).to(torch.bool) if raw else torch.empty(0, dtype=torch.bool)
        else:
            t = torch.frombuffer(raw, dtype=dtype) if raw else torch.empty(0, dtype=dtype)
        out[name] = t.reshape(info["shape"])
    return out, metadata
