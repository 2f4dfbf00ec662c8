"""PyTorch's torch.sparse on CUDA, the GPU peer of bench/device.mjs: reads the job (the data files it wrote and the
repetitions), times each op with its inputs already on the device (CUDA events, synchronized), and prints JSON.
Exits non-zero with one line on stderr where torch or CUDA is missing."""
import json
import sys

import numpy as np

try:
    import torch
except ImportError as e:
    sys.exit(f"no torch: {e}")
if not torch.cuda.is_available():
    sys.exit("torch has no CUDA device")

job = json.load(open(sys.argv[1]))
dev = torch.device("cuda")


def coo(name, m):
    d = f"{job['dir']}/{name}"
    rows = np.fromfile(f"{d}/rows.bin", dtype=np.int32)
    cols = np.fromfile(f"{d}/cols.bin", dtype=np.int32)
    vals = np.fromfile(f"{d}/vals.bin", dtype=np.float32)
    idx = torch.from_numpy(np.stack([rows, cols]).astype(np.int64))
    return torch.sparse_coo_tensor(idx, torch.from_numpy(vals), (m, m)).coalesce().to(dev)


def timed(fn):
    for _ in range(job["warmup"]):
        fn()
    torch.cuda.synchronize()
    ms = []
    for _ in range(job["reps"]):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        ms.append(start.elapsed_time(end))
    return {"median_ms": float(np.median(ms))}


p = job["problems"]
a = coo("spmm", p["spmm"]["m"]).to_sparse_csr()
b = torch.from_numpy(np.fromfile(f"{job['dir']}/spmm/b.bin", dtype=np.float32).reshape(p["spmm"]["m"], p["spmm"]["n"])).to(dev)
r = coo("reduce", p["reduce"]["m"])
g = coo("spgemm", p["spgemm"]["m"]).to_sparse_csr()
tasks = {
    "spmm": timed(lambda: a @ b),
    "reduce_sum_rows": timed(lambda: torch.sparse.sum(r, dim=1)),
    "spgemm": timed(lambda: g @ g),
}
print(json.dumps({"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "tasks": tasks}))
