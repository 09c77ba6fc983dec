"""Regenerates tests/io/pytorch/*.safetensors with PyTorch (Debian's python3-torch 1.13.1):

    /usr/bin/python3 tests/io/pytorch/make_fixtures.py

- pytorch_mlp.safetensors: the state_dict of torch.manual_seed(0); nn.Sequential(Linear(4, 16),
  ReLU(), Linear(16, 8), Tanh(), Linear(8, 3)), as safetensors.torch.save_file writes it
  (metadata {"format": "pt"}), plus the inputs `x` (5, 4) and PyTorch's outputs `y` in
  pytorch_mlp_io.safetensors.
- pytorch_dtypes.safetensors: one tensor per dtype and rank 0 to 6 with values the C++ test
  computes itself (value i at flat index i, scaled into each dtype's range).
"""
import os

import torch
from torch import nn

import safetensors_format as st

here = os.path.dirname(os.path.abspath(__file__))


def mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8), nn.Tanh(), nn.Linear(8, 3))


def main():
    model = mlp()
    x = torch.randn(5, 4, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        y = model(x)
    st.save(os.path.join(here, "pytorch_mlp.safetensors"), model.state_dict(), {"format": "pt"})
    st.save(os.path.join(here, "pytorch_mlp_io.safetensors"), {"x": x, "y": y})

    # Flat index i holds (i % 7) - 3 (0/1 for bool, i % 7 for uint8): exact in every dtype.
    shapes = [(), (3,), (2, 3), (2, 1, 3), (1, 2, 2, 2), (2, 1, 1, 2, 3), (1, 2, 1, 2, 1, 2)]
    tensors = {}
    for dtype in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
                  torch.uint8, torch.bool]:
        name = st.DTYPES[dtype][0]
        for rank, shape in enumerate(shapes):
            n = 1
            for d in shape:
                n *= d
            i = torch.arange(n)
            v = (i % 2 == 1) if dtype == torch.bool else (i % 7 if dtype == torch.uint8 else i % 7 - 3)
            tensors[f"{name}.rank{rank}"] = v.to(dtype).reshape(shape)
    st.save(os.path.join(here, "pytorch_dtypes.safetensors"), tensors, {"writer": "torch " + torch.__version__})


if __name__ == "__main__":
    main()
