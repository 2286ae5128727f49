#!/usr/bin/env python3
"""Write the seed corpus fuzz/corpus/{npy,csv,idx}/ (small valid and invalid inputs).

Run from the repository root: python3 fuzz/make_corpus.py. Needs NumPy (python3-numpy).
Files found by fuzzing are added by hand next to these (named crash-*/new-*)."""
import gzip, io, os, struct
import numpy as np

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

def put(kind, name, data):
    d = os.path.join(root, kind)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

def npy_bytes(a, version=None):
    b = io.BytesIO()
    np.lib.format.write_array(b, a, version=version, allow_pickle=False)
    return b.getvalue()

def raw_npy(header, data=b"", major=1):
    h = header.encode()
    pad = (64 - (10 + len(h) + 1) % 64) % 64
    h = h + b" " * pad + b"\n"
    ln = struct.pack("<H", len(h)) if major == 1 else struct.pack("<I", len(h))
    return b"\x93NUMPY" + bytes([major, 0]) + ln + h + data

x = np.arange(6, dtype=np.float64).reshape(3, 2) / 7
put("npy", "f8_c", npy_bytes(x))
put("npy", "f4_c", npy_bytes(x.astype("<f4")))
put("npy", "f8_fortran", npy_bytes(np.asfortranarray(x)))
put("npy", "u1", npy_bytes(np.arange(12, dtype=np.uint8).reshape(3, 4)))
put("npy", "i4_1d", npy_bytes(np.array([0, 1, 2], dtype="<i4")))
put("npy", "i8_1d", npy_bytes(np.array([0, 1, 2], dtype="<i8")))
put("npy", "v2", npy_bytes(x, version=(2, 0)))
put("npy", "v3", npy_bytes(x, version=(3, 0)))
put("npy", "empty_0x3", npy_bytes(np.zeros((0, 3))))
put("npy", "bad_bigendian", npy_bytes(x.astype(">f8")))
put("npy", "f2_c", npy_bytes(x.astype("<f2")))
put("npy", "bad_f2_big", npy_bytes(x.astype(">f2")))
put("npy", "bad_c16", npy_bytes(x.astype("<c16")))
put("npy", "bad_3d", npy_bytes(np.zeros((2, 2, 2))))
put("npy", "bad_0d", npy_bytes(np.float64(1.0)))
put("npy", "bad_object", raw_npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", b"\x80\x03N."))
put("npy", "bad_overflow", raw_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 8), }"))
put("npy", "bad_hlen", b"\x93NUMPY\x02\x00\xff\xff\xff\xff{")
put("npy", "bad_trailing", npy_bytes(x) + b"\0")
put("npy", "bad_truncated", npy_bytes(x)[:-3])
put("npy", "bad_dupkey", raw_npy("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", b"\0" * 8))
put("npy", "bad_struct", raw_npy("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (1,), }", b"\0" * 8))
put("npy", "bad_nan", npy_bytes(np.array([[np.nan, np.inf]])))  # the loader refuses NaN and infinity

# .npz: np.savez (stored) and np.savez_compressed (deflated) of small arrays, then damaged copies
def npz_bytes(compressed, **arrays):
    b = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(b, **arrays)
    return b.getvalue()
four = dict(train_features=x, train_labels=np.array([0, 1, 0]), test_features=x[:2].astype("<f2"),
            test_labels=np.array([1, 0], dtype="<i4"))
stored, deflated = npz_bytes(False, **four), npz_bytes(True, **four)
put("npz", "savez", stored)
put("npz", "savez_compressed", deflated)
put("npz", "fortran", npz_bytes(True, train_features=np.asfortranarray(x), train_labels=np.array([0, 1, 0])))
put("npz", "one_member", npz_bytes(False, test_labels=np.array([3, 1], dtype="|u1")))
put("npz", "bad_truncated", deflated[:len(deflated) // 2])
put("npz", "bad_truncated_tail", stored[:-10])
put("npz", "bad_not_zip", npy_bytes(x))
put("npz", "bad_member_not_npy", npz_bytes(False, train_features=np.zeros(3)).replace(b"\x93NUMPY", b"NOTNPY"))
put("npz", "bad_member_bigendian", npz_bytes(True, train_features=x.astype(">f8")))
put("npz", "bad_member_object", npz_bytes(False, train_labels=np.array([1, "a"], dtype=object)))
put("npz", "bad_member_short", npz_bytes(False, train_labels=np.zeros(4)).replace(b"'shape': (4,)", b"'shape': (5,)"))
at = stored.find(np.array([0, 1, 0]).tobytes()) + 8  # a byte of train_labels: its CRC no longer matches
put("npz", "bad_crc", stored[:at] + bytes([stored[at] ^ 1]) + stored[at + 1:])

put("csv", "plain", b"1,2,0\n3.5,-4e-2,1\n")
put("csv", "header_crlf", b"a,b,label\r\n1,2,0\r\n3,4,1\r\n")
put("csv", "quoted", b"\"x\",\"y\"\n\"1.5\",2\n")
put("csv", "blank_lines", b"\n1,2\n\n3,4\n\n")
put("csv", "bom", b"\xef\xbb\xbf1,2\n3,4\n")
put("csv", "bad_ragged", b"1,2,3\n4,5\n")
put("csv", "bad_text", b"1,2\n3,abc\n")
put("csv", "bad_comma_decimal", b"1,5;2\n")
put("csv", "bad_nan", b"1,nan\n")
put("csv", "bad_inf", b"1,-Infinity\n")
put("csv", "bad_range", b"1,1e999\n")
put("csv", "bad_hex", b"0x1p3,1\n")
put("csv", "label_frac", b"1,2.5\n")
put("csv", "label_neg", b"1,-1\n")
put("csv", "bad_empty", b"")
put("csv", "bad_header_only", b"a,b\n")
put("csv", "bad_quote", b"\"1,2\n")

def idx(magic_type, dims, data):
    return bytes([0, 0, magic_type, len(dims)]) + b"".join(struct.pack(">I", d) for d in dims) + data

img = idx(8, [2, 3, 3], bytes(range(18)))
lab = idx(8, [2], bytes([1, 0]))
put("idx", "images", img)
put("idx", "labels", lab)
put("idx", "images_gz", gzip.compress(img, mtime=0))
put("idx", "labels_gz", gzip.compress(lab, mtime=0))
put("idx", "bad_float", idx(0x0D, [1, 2], b"\0" * 8))
put("idx", "bad_magic", b"\x01\x02\x08\x01\0\0\0\x01\x05")
put("idx", "bad_truncated", img[:-1])
put("idx", "bad_trailing", img + b"\0")
put("idx", "bad_gz_truncated", gzip.compress(img, mtime=0)[:-6])
put("idx", "bad_gz_bomb", gzip.compress(idx(8, [1, 4], bytes(4)) + bytes(100000), mtime=0))
put("idx", "bad_zero_dim_overflow", bytes.fromhex("00000803" "00000000" "e4ffd2fe" "ffffff08"))
put("idx", "bad_huge", idx(8, [0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF], b""))

# --- session files (src/config/session.c; see include/gs_session.h) ---
full = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "session_full.txt"), "rb").read()
H = b"# gsrscope session 1\n"
put("session", "ok_full", full)
put("session", "ok_minimal", H + b"end\n")
put("session", "ok_crlf", (H + b"tau=0.5\nmethods=gacl,gsr,air\nend\n").replace(b"\n", b"\r\n"))
put("session", "ok_spaces", H + b"\n# comment\n  tau = 2\n\tbeta=\t3\nsynthetic=1\ndata_dir=\nend\n\n  \n")
put("session", "ok_exp", H + b"profile=exp\nrho=50\npairs=random\naugment=tail\nexpand=128\nend\n")
put("session", "bad_empty", b"")
put("session", "bad_no_end", full.replace(b"end\n", b""))
put("session", "bad_header", b"# gsrscope session 2\nend\n")
put("session", "bad_twice", H + b"tau=1\ntau=2\nend\n")
put("session", "bad_nul", H + b"tau=1\0\nend\n")
put("session", "bad_long", H + b"train_features=" + b"a" * 5000 + b"\nend\n")
put("session", "bad_after_end", H + b"end\ntau=1\n")
put("session", "bad_no_eq", H + b"tau 1\nend\n")
put("session", "bad_name", H + b"=1\nend\n")
put("session", "bad_value", H + b"tau=-1\nend\n")
put("session", "bad_flag", H + b"synthetic=yes\nend\n")
put("session", "bad_method", H + b"methods=gacl,,gsr\nend\n")
put("session", "bad_unknown", H + b"colour=blue\nend\n")
put("session", "bad_label_col", H + b"label_col=-2\nend\n")

# .pt: the committed torch.save files of tests/pt/ (written by tests/pt/make_pt.py, which needs
# torch) and the damaged copies of tests/bad_inputs/files/ (tests/pt/make_bad.py)
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for name, src in (("x_f32", "tests/pt/a/X_train.pt"), ("y_i16", "tests/pt/a/y_train.pt"),
                  ("x_f16", "tests/pt/a/X_test.pt"), ("views_dict", "tests/pt/views.pt"),
                  ("bf16_ordereddict", "tests/pt/bf.pt"), ("bad_module", "tests/pt/other.pt"),
                  ("bad_global", "tests/bad_inputs/files/pt_global.pt"),
                  ("bad_storage", "tests/bad_inputs/files/pt_storage.pt"),
                  ("bad_numel", "tests/bad_inputs/files/pt_numel.pt"),
                  ("bad_offset", "tests/bad_inputs/files/pt_offset.pt"),
                  ("bad_member", "tests/bad_inputs/files/pt_member.pt"),
                  ("bad_truncated", "tests/bad_inputs/files/pt_truncated.pt")):
    with open(os.path.join(repo, src), "rb") as f:
        put("pt", name, f.read())
