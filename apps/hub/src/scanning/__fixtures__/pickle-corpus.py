"""Makes the pickle scanners' test corpus with Python's own writers, and reads each pickle independently.

Usage: python pickle-corpus.py OUT_DIR  -> writes files into OUT_DIR and prints a JSON manifest on stdout:
[{"file", "kind", "malicious", "imports": [[module, name], ...] | null}]. "imports" is what
pickletools.genops finds (GLOBAL, INST, STACK_GLOBAL with its operands resolved through a stack and memo model
built from pickletools' own stack_before/stack_after descriptions), or null where genops cannot read the file
alone (joblib interleaves raw array bytes).

Nothing malicious is ever loaded: the payloads are only written.
"""

import builtins
import collections
import io
import json
import os
import pickle
import pickletools
import runpy
import struct
import subprocess
import sys
import tarfile
import types
import zipfile

import numpy as np

OUT = sys.argv[1]
MANIFEST = []


def genops_imports(data):
    """Every global a pickle stream imports, pickle after pickle (reading on after each STOP)."""
    found = []
    stream = io.BytesIO(data)
    while stream.tell() < len(data):
        stack, memo = [], {}
        for opcode, arg, _pos in pickletools.genops(stream):
            name = opcode.name
            if name in ("GLOBAL", "INST"):
                module, attr = arg.split(" ", 1)
                found.append((module, attr))
            if name == "STACK_GLOBAL":
                attr, module = stack.pop(), stack.pop()
                found.append((module, attr) if isinstance(module, str) and isinstance(attr, str) else ("<unresolvable>", "?"))
                stack.append(None)
                continue
            if name in ("PUT", "BINPUT", "LONG_BINPUT"):
                memo[arg] = stack[-1]
                continue
            if name == "MEMOIZE":
                memo[len(memo)] = stack[-1]
                continue
            if name in ("GET", "BINGET", "LONG_BINGET"):
                stack.append(memo.get(arg))
                continue
            if name == "STOP":
                break
            # The generic stack effect pickletools documents for the opcode.
            before = opcode.stack_before
            if pickletools.markobject in before:
                while stack and stack[-1] is not pickletools.markobject:
                    stack.pop()
                if stack:
                    stack.pop()
                before = [b for b in before if b is not pickletools.markobject and b is not pickletools.stackslice]
            for _ in before:
                if stack:
                    stack.pop()
            for produced in opcode.stack_after:
                if produced is pickletools.markobject:
                    stack.append(pickletools.markobject)
                elif name in ("SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "STRING", "BINSTRING", "SHORT_BINSTRING"):
                    stack.append(arg)
                else:
                    stack.append(None)
    return found


def record(file, kind, malicious, data_for_genops):
    imports = None if data_for_genops is None else sorted({tuple(g) for g in genops_imports(data_for_genops)})
    MANIFEST.append({"file": file, "kind": kind, "malicious": malicious, "imports": imports})


def write(file, data):
    with open(os.path.join(OUT, file), "wb") as handle:
        handle.write(data)


# ---- payloads: classes whose __reduce__ makes the unpickler call something dangerous ----
class OsSystem:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


class Popen:
    def __reduce__(self):
        return (subprocess.Popen, (["echo", "pwned"],))


class CheckOutput:
    def __reduce__(self):
        return (subprocess.check_output, (["echo", "pwned"],))


class Exec:
    def __reduce__(self):
        return (builtins.exec, ("print('pwned')",))


class Eval:
    def __reduce__(self):
        return (builtins.eval, ("1+1",))


class RunCode:
    def __reduce__(self):
        return (runpy._run_code, ("print('pwned')", {}))


class Nested:
    def __init__(self, protocol):
        self.protocol = protocol

    def __reduce__(self):
        return (pickle.loads, (pickle.dumps(OsSystem(), protocol=self.protocol),))


class MemoizedStrings:
    """Two globals of one module: protocol 4+ writes the module string once and fetches it from the memo."""

    def __reduce__(self):
        return (subprocess.check_output, ([subprocess.Popen],))


BENIGN = {
    "weights": [1.5, 2.0, -3.25],
    "name": "tiny-model",
    "pair": (1, b"\x00\x01bytes"),
    "labels": {1, 2, 3},
    "frozen": frozenset({"a"}),
    "ordered": collections.OrderedDict(a=1, b=2),
    "complex": complex(1, 2),
    "buffer": bytearray(b"xyz"),
    "slice": slice(1, 5, 2),
    "big": 2**80,
}

PAYLOADS = {
    "os_system": OsSystem,
    "popen": Popen,
    "check_output": CheckOutput,
    "exec": Exec,
    "eval": Eval,
    "runpy": RunCode,
    "memoized_strings": MemoizedStrings,
}

for protocol in range(0, 6):
    data = pickle.dumps(BENIGN, protocol=protocol)
    write(f"p{protocol}_benign.pkl", data)
    record(f"p{protocol}_benign.pkl", "pickle", False, data)
    for label, payload in PAYLOADS.items():
        data = pickle.dumps({"model": BENIGN, "x": payload()}, protocol=protocol)
        write(f"p{protocol}_{label}.pkl", data)
        record(f"p{protocol}_{label}.pkl", "pickle", True, data)
    data = pickle.dumps(Nested(protocol), protocol=protocol)
    write(f"p{protocol}_nested.pkl", data)
    # The inner pickle is bytes inside the outer one: read on its own, its imports join the outer ones.
    record(f"p{protocol}_nested.pkl", "nested", True, data + pickle.dumps(OsSystem(), protocol=protocol))

# Two pickles one after the other: pickle.load reads the first, a second load the next.
data = pickle.dumps(BENIGN, protocol=2) + pickle.dumps(OsSystem(), protocol=4)
write("concatenated.pkl", data)
record("concatenated.pkl", "pickle", True, data)


# ---- PyTorch formats, written as torch.save lays them out (torch itself is not installed) ----
torch = types.ModuleType("torch")
torch_utils = types.ModuleType("torch._utils")
sys.modules["torch"], sys.modules["torch._utils"] = torch, torch_utils


class FloatStorage:
    pass


FloatStorage.__module__ = "torch"
torch.FloatStorage = FloatStorage


def _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks):
    return None


_rebuild_tensor_v2.__module__ = "torch._utils"
torch_utils._rebuild_tensor_v2 = _rebuild_tensor_v2


class Storage:
    def __init__(self, key, numel):
        self.key, self.numel = key, numel


class Tensor:
    def __init__(self, storage, shape):
        self.storage, self.shape = storage, shape

    def __reduce__(self):
        stride = (self.shape[1], 1)
        return (_rebuild_tensor_v2, (self.storage, 0, self.shape, stride, False, collections.OrderedDict()))


class TorchPickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, Storage):
            return ("storage", FloatStorage, obj.key, "cpu", obj.numel)
        return None


def torch_pickle(obj, protocol=2):
    buffer = io.BytesIO()
    TorchPickler(buffer, protocol=protocol).dump(obj)
    return buffer.getvalue()


def state_dict(extra=None):
    storages = [Storage("0", 4), Storage("1", 6)]
    state = collections.OrderedDict(
        [("layer.weight", Tensor(storages[0], (2, 2))), ("layer.bias", Tensor(storages[1], (2, 3)))]
    )
    if extra is not None:
        state["extra"] = extra
    return state, storages


def torch_zip(file, state, storages, extra_members=(), flag_bits=0):
    data_pkl = torch_pickle(state)
    with zipfile.ZipFile(os.path.join(OUT, file), "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("archive/data.pkl", data_pkl)
        archive.writestr("archive/byteorder", "little")
        for storage in storages:
            archive.writestr(f"archive/data/{storage.key}", struct.pack(f"<{storage.numel}f", *range(storage.numel)))
        archive.writestr("archive/version", "3\n")
        archive.writestr("archive/.data/serialization_id", "1234567890")
        for name, content in extra_members:
            archive.writestr(name, content)
    if flag_bits:
        # Set a general-purpose flag bit on every member, local and central headers (torch still loads it).
        raw = bytearray(open(os.path.join(OUT, file), "rb").read())
        for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            at = raw.find(signature)
            while at >= 0:
                raw[at + flag_at] |= flag_bits
                at = raw.find(signature, at + 4)
        write(file, bytes(raw))
    return data_pkl


state, storages = state_dict()
data_pkl = torch_zip("torch_zip_benign.pt", state, storages)
record("torch_zip_benign.pt", "torch-zip", False, data_pkl)

state, storages = state_dict(OsSystem())
data_pkl = torch_zip("torch_zip_malicious.bin", state, storages)
record("torch_zip_malicious.bin", "torch-zip", True, data_pkl)

state, storages = state_dict()
hidden = pickle.dumps(Exec(), protocol=2)
data_pkl = torch_zip("torch_zip_hidden_member.pt", state, storages, [("archive/notes.txt", hidden)])
record("torch_zip_hidden_member.pt", "torch-zip", True, data_pkl + hidden)

state, storages = state_dict(OsSystem())
data_pkl = torch_zip("torch_zip_flag_bit.pt", state, storages, flag_bits=0x01)
record("torch_zip_flag_bit.pt", "torch-zip", True, data_pkl)

# Legacy raw format (torch < 1.6): magic number, protocol version, sys_info, data, storage keys, raw storages.
def legacy_raw(file, extra=None):
    state, storages = state_dict(extra)
    parts = [
        pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2),
        pickle.dumps(1001, protocol=2),
        pickle.dumps({"protocol_version": 1001, "little_endian": True, "type_sizes": {"short": 2, "int": 4, "long": 4}}, protocol=2),
        torch_pickle(state),
        pickle.dumps([s.key for s in storages], protocol=2),
    ]
    raw = b"".join(struct.pack("<q", s.numel) + struct.pack(f"<{s.numel}f", *range(s.numel)) for s in storages)
    write(file, b"".join(parts) + raw)
    record(file, "torch-legacy", extra is not None, b"".join(parts))


legacy_raw("torch_legacy_benign.pt")
legacy_raw("torch_legacy_malicious.pt", OsSystem())


# Legacy tar format: sys_info, pickle, storages and tensors members.
def legacy_tar(file, extra=None):
    state, storages = state_dict(extra)
    sys_info = pickle.dumps({"protocol_version": 1000, "little_endian": True}, protocol=2)
    data = torch_pickle(state)
    # storages: a count, then per storage a pickle of (key, location, storage type), its element count as
    # int64 and its raw elements; tensors: a count (no tensor views here).
    storage_parts = [pickle.dumps(len(storages), protocol=2)]
    for storage in storages:
        storage_parts.append(pickle.dumps((storage.key, "cpu", FloatStorage), protocol=2))
        storage_parts.append(struct.pack("<q", storage.numel) + struct.pack(f"<{storage.numel}f", *range(storage.numel)))
    storages_member = b"".join(storage_parts)
    members = [("sys_info", sys_info), ("pickle", data), ("storages", storages_member), ("tensors", pickle.dumps(0, protocol=2))]
    with tarfile.open(os.path.join(OUT, file), "w") as archive:
        for name, content in members:
            info = tarfile.TarInfo(name)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    storage_pickles = b"".join(part for i, part in enumerate(storage_parts) if i == 0 or i % 2 == 1)
    record(file, "torch-tar", extra is not None, sys_info + data + storage_pickles)


legacy_tar("torch_tar_benign.tar")
legacy_tar("torch_tar_malicious.tar", OsSystem())


# ---- numpy ----
def npy_pickle(array):
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=True)
    raw = buffer.getvalue()
    header_length = struct.unpack("<H", raw[8:10])[0]
    return raw, raw[10 + header_length :]


raw, _ = npy_pickle(np.arange(12, dtype="<f4").reshape(3, 4))
write("plain.npy", raw)
record("plain.npy", "npy", False, b"")

raw, inner = npy_pickle(np.array([1, "two", {"three": 3}], dtype=object))
write("object_benign.npy", raw)
record("object_benign.npy", "npy", False, inner)

raw, inner = npy_pickle(np.array([1, OsSystem()], dtype=object))
write("object_malicious.npy", raw)
record("object_malicious.npy", "npy", True, inner)

buffer = io.BytesIO()
np.savez(buffer, weights=np.ones(4), evil=np.array([Eval()], dtype=object))
write("arrays_malicious.npz", buffer.getvalue())
_, inner = npy_pickle(np.array([Eval()], dtype=object))
record("arrays_malicious.npz", "npz", True, inner)

buffer = io.BytesIO()
np.savez_compressed(buffer, weights=np.ones(4), labels=np.array(["a", "b"], dtype=object))
write("arrays_benign.npz", buffer.getvalue())
_, inner = npy_pickle(np.array(["a", "b"], dtype=object))
record("arrays_benign.npz", "npz", False, inner)

# ---- joblib: arrays written between the pickle opcodes ----
try:
    import joblib

    model = {"coef": np.arange(10.0), "names": np.array(["a", 1], dtype=object), "matrix": np.ones((3, 5), dtype="<i2"), "text": np.array(["ab", "c"])}
    for label, extra in (("benign", None), ("malicious", OsSystem())):
        for compress in (0, 3):
            obj = dict(model, evil=extra) if extra else model
            file = f"joblib_{label}{'_zlib' if compress else ''}.joblib"
            joblib.dump(obj, os.path.join(OUT, file), compress=compress)
            record(file, "joblib", extra is not None, None)
    # Each method joblib compresses with: gzip is read, the others are could-not-scan with the reason. Not in
    # the manifest (whose verdicts are safe or unsafe): pickle-scanner.test.ts looks at them by name.
    for method in ("gzip", "bz2", "xz", "lzma"):
        joblib.dump(dict(model, evil=OsSystem()), os.path.join(OUT, f"joblib_malicious_{method}.joblib"), compress=(method, 3))
    joblib.dump(dict(model, evil=OsSystem()), os.path.join(OUT, "model.pkl.xz"), compress=("xz", 3))
except ImportError:
    pass

json.dump(MANIFEST, sys.stdout)
