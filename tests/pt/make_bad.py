#!/usr/bin/env python3
"""Write the damaged .pt files of tests/bad_inputs/files/ (pt_*.pt) from tests/pt/a/X_train.pt.

python3 tests/pt/make_bad.py   (from the repository root; needs only Python's zipfile)
Each file changes one thing of a good torch.save file:
  pt_global.pt    the pickle calls os.system instead of torch._utils._rebuild_tensor_v2
  pt_storage.pt   the storage class is torch.ComplexFloatStorage
  pt_numel.pt     the pickle claims 16384 values for a storage of 720 (a forged size)
  pt_offset.pt    storage offset 5: the tensor reaches past its storage
  pt_member.pt    the storage member data/0 is cut to half its bytes
  pt_truncated.pt the archive cut in the middle (its directory lost)
"""
import os, zipfile

src = "tests/pt/a/X_train.pt"
dst = "tests/bad_inputs/files"
zin = zipfile.ZipFile(src)
names = zin.namelist()
pkl = [n for n in names if n.endswith("/data.pkl")][0]
prefix = pkl[: -len("data.pkl")]

def rewrite(out, pickle_fn=None, member_fn=None, rename=None):
    with zipfile.ZipFile(os.path.join(dst, out), "w", zipfile.ZIP_STORED) as z:
        for n in names:
            data = zin.read(n)
            if n == pkl and pickle_fn:
                data = pickle_fn(data)
            if n == prefix + "data/0" and member_fn:
                data = member_fn(data)
            z.writestr(n, data)

def sub(old, new):
    def f(b):
        assert b.count(old) == 1, (old, b)
        return b.replace(old, new)
    return f

rewrite("pt_global.pt", sub(b"ctorch._utils\n_rebuild_tensor_v2\n", b"cos\nsystem\n"))
rewrite("pt_storage.pt", sub(b"ctorch\nFloatStorage\n", b"ctorch\nComplexFloatStorage\n"))
rewrite("pt_numel.pt", sub(b"M\xd0\x02t", b"M\x00\x40t"))
rewrite("pt_offset.pt", sub(b"QK\x00", b"QK\x05"))
rewrite("pt_member.pt", member_fn=lambda b: b[: len(b) // 2])
whole = open(src, "rb").read()
open(os.path.join(dst, "pt_truncated.pt"), "wb").write(whole[: len(whole) // 2])
