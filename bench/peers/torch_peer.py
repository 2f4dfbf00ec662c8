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


def dense(name, file, shape):
    return torch.from_numpy(np.fromfile(f"{job['dir']}/{name}/{file}", dtype=np.float32).reshape(*shape)).to(dev)


a = coo("spmm", p["spmm"]["m"]).to_sparse_csr()
b = dense("spmm", "b.bin", (p["spmm"]["m"], p["spmm"]["n"]))
ga = coo("graph", p["graph"]["m"]).to_sparse_csr()
gb = dense("graph", "b.bin", (p["graph"]["m"], p["graph"]["n"]))
r = coo("reduce", p["reduce"]["m"])
g = coo("spgemm", p["spgemm"]["m"]).to_sparse_csr()
tasks = {
    "spmm": timed(lambda: a @ b),
    "graph": timed(lambda: ga @ gb),
    "reduce_sum_rows": timed(lambda: torch.sparse.sum(r, dim=1)),
    "spgemm": timed(lambda: g @ g),
}


def gcn_epoch():
    """The GCN of bench/device.mjs in plain PyTorch on the same graph, features and labels: Z = Â relu(Â X W1) W2,
    softmax cross-entropy, Adam; an epoch is forward, backward, the step and the loss read back, as ours."""
    q = p["gcn"]
    n = q["nodes"]
    adj = coo("gcn", n)
    x = dense("gcn", "x.bin", (n, q["features"]))
    labels = torch.from_numpy(np.fromfile(f"{job['dir']}/gcn/labels.bin", dtype=np.int32).astype(np.int64)).to(dev)
    classes = int(labels.max().item()) + 1
    torch.manual_seed(1)
    w1 = torch.nn.Parameter(torch.empty(q["features"], q["hidden"], device=dev).uniform_(-0.5, 0.5))
    w2 = torch.nn.Parameter(torch.empty(q["hidden"], classes, device=dev).uniform_(-0.5, 0.5))
    opt = torch.optim.Adam([w1, w2], lr=0.01)

    def epoch():
        opt.zero_grad()
        h = torch.relu(torch.sparse.mm(adj, x @ w1))
        z = torch.sparse.mm(adj, h @ w2)
        loss = torch.nn.functional.cross_entropy(z, labels)
        loss.backward()
        opt.step()
        return loss.item()

    for _ in range(job["warmup"]):
        epoch()
    ms = []
    for _ in range(q["epochs"]):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        epoch()
        end.record()
        torch.cuda.synchronize()
        ms.append(start.elapsed_time(end))
    return {"median_ms": float(np.median(ms)), "model": "plain PyTorch, torch.sparse.mm (COO) and Adam"}


try:
    tasks["gcn"] = gcn_epoch()
except FileNotFoundError as e:
    tasks["gcn"] = {"unavailable": f"no GCN data: {e}"}
print(json.dumps({"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "tasks": tasks}))
