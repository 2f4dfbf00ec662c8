"""The Python peers of the bench: scipy and numpy doing the same work on the same data, timing only the work.

Usage: numpy_peer.py JOB.json -> prints {"versions": {...}, "tasks": {name: {median_ms, min_ms, max_ms, samples,
impl, ...}}} as JSON. Each task of the job names its data dir (raw int32/float32 binaries written once by the JS
harness), its kind and its budget: at least `repeats` timed calls and at least `min_ms` of them, after `warmup`
untimed calls (`cold`: none, and every call's time kept in order); an spmm task's `dense`, when there, is the budget
of its numpy dense product. Loading the files and building the CSR/COO inputs happen before the clock starts."""
import json, os, sys, time

import numpy as np

try:
    import scipy
    import scipy.sparse as sp
except ImportError as e:  # numpy alone still runs its tasks; scipy's are recorded as unavailable
    scipy = sp = None
    SCIPY_ERROR = str(e)


def timed(fn, task):
    for _ in range(task.get("warmup", 1)):
        out = fn()
    t, total = [], 0.0
    while len(t) < task["repeats"] or total < task.get("min_ms", 0):
        s = time.perf_counter()
        out = fn()
        d = (time.perf_counter() - s) * 1e3
        t.append(d)
        total += d
        if len(t) >= task.get("max_repeats", 100000):
            break
    in_order = list(t)
    t.sort()
    m = len(t) // 2
    median = t[m] if len(t) % 2 else (t[m - 1] + t[m]) / 2
    res = {"median_ms": median, "min_ms": t[0], "max_ms": t[-1], "samples": len(t)}
    if task.get("cold"):  # the cold-start section: every call's time, in order, from the first
        res["times"] = in_order
    return res, out


def read(d, name, dtype):
    return np.fromfile(os.path.join(d, name), dtype=dtype)


def coo_of(d, shape, suffix=""):
    return read(d, f"rows{suffix}.bin", np.int32), read(d, f"cols{suffix}.bin", np.int32), read(d, f"vals{suffix}.bin", np.float32)


def csr_of(d, shape, suffix=""):
    r, c, v = coo_of(d, shape, suffix)
    return sp.csr_matrix((v, (r, c)), shape=shape)


def size_of(out):
    if isinstance(out, tuple):
        return int(len(out[0]))
    if sp is not None and sp.issparse(out):
        return int(out.nnz)
    return int(np.asarray(out).size)


def fill_empty_rows(rows, cols, vals, n_rows, default):
    """TF's fill_empty_rows in linear numpy: every entry moves down by the number of empty rows above it, and each
    empty row gets one entry (row, 0) = default at the start of its slot."""
    counts = np.bincount(rows, minlength=n_rows)
    empty = counts == 0
    before = np.cumsum(empty) - empty
    starts = np.cumsum(counts) - counts
    n_out = len(rows) + int(empty.sum())
    out_r = np.empty(n_out, np.int32)
    out_c = np.empty(n_out, np.int32)
    out_v = np.empty(n_out, np.float32)
    pos = np.arange(len(rows)) + before[rows]
    out_r[pos], out_c[pos], out_v[pos] = rows, cols, vals
    er = np.flatnonzero(empty)
    epos = starts[er] + before[er]
    out_r[epos], out_c[epos], out_v[epos] = er, 0, default
    return out_r, out_c, out_v, empty


def run(task):
    """Returns [(suffix, result)] for one task."""
    d, kind = task["dir"], task["kind"]
    if kind == "spmm":
        m, k, n = task["m"], task["k"], task["n"]
        b = read(d, "b.bin", np.float32).reshape(k, n)
        out = []
        if sp is not None:
            a = csr_of(d, (m, k))
            res, prod = timed(lambda: a @ b, task)
            res.update(impl="scipy.sparse.csr_matrix @ ndarray", checksum=float(np.abs(prod).sum(dtype=np.float64)))
            out.append(("scipy", res))
            ad = a.toarray() if task.get("dense") else None
        elif task.get("dense"):
            r, c, v = coo_of(d, (m, k))
            ad = np.zeros((m, k), np.float32)
            ad[r, c] = v
        if task.get("dense"):
            res, prod = timed(lambda: ad @ b, task["dense"])
            res.update(impl="ndarray @ ndarray (BLAS sgemm/sgemv), A densified outside the clock", checksum=float(np.abs(prod).sum(dtype=np.float64)))
            out.append(("numpy-dense", res))
        return out
    shape = tuple(task["shape"])
    if kind == "embedding_sum":
        rows, ids = read(d, "rows.bin", np.int32), read(d, "ids.bin", np.int32)
        params = read(d, "params.bin", np.float32).reshape(shape)
        n_rows = int(rows[-1]) + 1 if len(rows) else 0

        def fn():
            # The rows of the ids gathered, then each run of one row summed (the rows are sorted).
            starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
            out = np.zeros((n_rows, shape[1]), np.float32)
            out[rows[starts]] = np.add.reduceat(params[ids], starts, axis=0)
            return out

        res, out = timed(fn, task)
        res.update(impl="np.add.reduceat(params[ids], starts of the rows' runs) into zeros", lib="numpy",
                   out_size=size_of(out), checksum=float(np.abs(out).sum(dtype=np.float64)))
        return [("scipy", res)]
    if kind == "reorder":
        r, c, v = coo_of(d, shape)
        fn, impl, lib = (lambda: (lambda o: (r[o], c[o], v[o]))(np.lexsort((c, r)))), "np.lexsort((cols, rows)) + 3 gathers", "numpy"
    elif kind == "fill_empty_rows":
        r, c, v = coo_of(d, shape)
        fn, impl, lib = (lambda: fill_empty_rows(r, c, v, shape[0], np.float32(0))), "bincount + cumsum + scatter (linear)", "numpy"
    elif sp is None:
        return [("scipy", {"error": f"scipy unavailable: {SCIPY_ERROR}"})]
    elif kind == "to_dense":
        r, c, v = coo_of(d, shape)
        coo = sp.coo_matrix((v, (r, c)), shape=shape)
        fn, impl, lib = (lambda: coo.toarray()), "coo_matrix.toarray()", "scipy"
    elif kind == "add":
        a, b = csr_of(d, shape), csr_of(d, shape, "2")
        fn, impl, lib = (lambda: a + b), "csr_matrix + csr_matrix", "scipy"
    elif kind == "reduce_sum":
        a = csr_of(d, shape)
        fn, impl, lib = (lambda: a.sum(axis=1)), "csr_matrix.sum(axis=1)", "scipy"
    elif kind == "concat":
        a, b = csr_of(d, shape), csr_of(d, shape, "2")
        fn, impl, lib = (lambda: sp.hstack([a, b], format="csr")), "scipy.sparse.hstack([csr, csr], format='csr') (axis 1)", "scipy"
    elif kind == "spgemm":
        a, b = csr_of(d, shape), csr_of(d, shape, "2")
        fn, impl, lib = (lambda: a @ b), "csr_matrix @ csr_matrix", "scipy"
    elif kind == "transpose":
        a = csr_of(d, shape)
        fn, impl, lib = (lambda: a.T.tocsr()), "csr_matrix.T.tocsr() (csc→csr conversion)", "scipy"
    elif kind == "reshape":
        r, c, v = coo_of(d, shape)
        coo = sp.coo_matrix((v, (r, c)), shape=shape)
        new_shape = tuple(task["new_shape"])
        fn, impl, lib = (lambda: coo.reshape(new_shape)), "coo_matrix.reshape(new_shape)", "scipy"
    elif kind == "segment_sum":
        seg, idx = read(d, "rows.bin", np.int32), read(d, "cols.bin", np.int32)
        data = read(d, "data.bin", np.float32).reshape(task["data_shape"])
        ones = np.ones(len(idx), np.float32)
        nseg = int(seg[-1]) + 1 if len(seg) else 0

        def fn():
            indptr = np.zeros(nseg + 1, np.int64)
            np.cumsum(np.bincount(seg, minlength=nseg), out=indptr[1:])
            return sp.csr_matrix((ones, idx, indptr), shape=(nseg, data.shape[0])) @ data

        impl, lib = "csr_matrix((1, indices, indptr from segment_ids)) @ data", "scipy"
    else:
        raise ValueError(f"unknown task kind {kind}")
    res, out = timed(fn, task)
    res.update(impl=impl, lib=lib, out_size=size_of(out))
    return [("scipy", res)]


def main():
    job = json.load(open(sys.argv[1]))
    versions = {"python": sys.version.split()[0], "numpy": np.__version__}
    if scipy is not None:
        versions["scipy"] = scipy.__version__
    threads = {k: os.environ[k] for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS") if k in os.environ}
    out = {"versions": versions, "cpu_count": os.cpu_count(), "blas_threads_env": threads, "tasks": {}}
    for task in job["tasks"]:
        try:
            for suffix, res in run(task):
                out["tasks"][f"{task['name']}/{suffix}"] = res
        except Exception as e:  # one failing task is recorded, the others still run
            out["tasks"][f"{task['name']}/scipy"] = {"error": f"{type(e).__name__}: {e}"}
    print(json.dumps(out))


main()
