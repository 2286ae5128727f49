#!/usr/bin/env python3
"""Write .pt files with torch.save and the same arrays as .npy, for tests/t_pt.sh.

python3 tests/pt/make_pt.py OUT_DIR   (needs torch, e.g. Debian's python3-torch, and NumPy)

The committed copies in tests/pt/ were written by this script; t_pt.sh also runs it into a
temporary folder where torch is installed. Sets (each a .pt form and an .npy form):
  a/       X_train.pt float32, y_train.pt int16, X_test.pt float16, y_test.pt int64 (GACL's names)
  a_npy/   the same arrays as train_features.npy, ... (float16 stays float16)
  views.pt a dict of views: X_train = a column slice (stride (16, 2)), y_train = every other
           value of a longer tensor, X_test = a transposed slice (column-major, storage offset),
           y_test = a slice sharing y_train's storage; views_npy/ the same arrays, contiguous
  bf.pt    a dict of bfloat16 features and uint8 labels; bf_npy/ (features as float32, exact)
  other.pt a pickle naming a global besides a tensor's (a torch.nn.Linear module, never run)
"""
import os, sys
import numpy as np
import torch

out = sys.argv[1]
g = torch.Generator().manual_seed(7)
C, D = 5, 8

def labels(n, dtype):
    return (torch.arange(n) * 7 % C).to(dtype)

def npy_dir(d, xtr, ytr, xte, yte):
    os.makedirs(d, exist_ok=True)
    for name, t in (("train_features", xtr), ("train_labels", ytr), ("test_features", xte), ("test_labels", yte)):
        a = t.numpy() if t.dtype != torch.bfloat16 else t.float().numpy()
        np.save(os.path.join(d, name + ".npy"), np.ascontiguousarray(a))

# a: the four GACL files
xtr = torch.randn(90, D, generator=g)
xte = torch.randn(40, D, generator=g).half()
ytr, yte = labels(90, torch.int16), labels(40, torch.int64)
os.makedirs(os.path.join(out, "a"), exist_ok=True)
for name, t in (("X_train", xtr), ("y_train", ytr), ("X_test", xte), ("y_test", yte)):
    torch.save(t, os.path.join(out, "a", name + ".pt"))
npy_dir(os.path.join(out, "a_npy"), xtr, ytr, xte, yte)

# views.pt: strided views, a storage offset, a shared storage
big = torch.randn(90, 2 * D, generator=g)
xtr = big[:, ::2]
assert not xtr.is_contiguous()
ylong = labels(180, torch.int64)
ytr = ylong[::2]
tbig = torch.randn(D + 3, 50, generator=g)
xte = tbig[2:2 + D, 5:45].t()            # 40 × D, column-major, offset 2·50 + 5
yte = ylong[100:140]                      # shares ylong's storage with ytr
torch.save({"X_train": xtr, "y_train": ytr, "X_test": xte, "y_test": yte}, os.path.join(out, "views.pt"))
npy_dir(os.path.join(out, "views_npy"), xtr, ytr, xte, yte)

# bf.pt: bfloat16 features, uint8 labels, in an OrderedDict
from collections import OrderedDict
xtr = torch.randn(90, D, generator=g).bfloat16()
xte = torch.randn(40, D, generator=g).bfloat16()
ytr, yte = labels(90, torch.uint8), labels(40, torch.uint8)
torch.save(OrderedDict([("train_features", xtr), ("train_labels", ytr), ("test_features", xte), ("test_labels", yte)]),
           os.path.join(out, "bf.pt"))
npy_dir(os.path.join(out, "bf_npy"), xtr, ytr, xte, yte)

# other.pt: a module (the pickle names torch.nn.modules.linear.Linear)
torch.save(torch.nn.Linear(2, 2), os.path.join(out, "other.pt"))
