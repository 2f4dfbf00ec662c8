"""The Python peers of the bench: scipy and numpy doing the same work on the same data, timing only the work.
Usage: numpy_peer.py JOB.json -> prints {task: {median_ms, min_ms, max_ms}} and the versions, as JSON."""
import json, sys, time
import numpy as np
import scipy
import scipy.sparse as sp


def timed(fn, repeats):
    fn()
    t = []
    for _ in range(repeats):
        s = time.perf_counter()
        fn()
        t.append((time.perf_counter() - s) * 1e3)
    t.sort()
    return {"median_ms": t[len(t) // 2], "min_ms": t[0], "max_ms": t[-1]}


def read(d, name, dtype):
    return np.fromfile(f"{d}/{name}", dtype=dtype)


def main():
    job = json.load(open(sys.argv[1]))
    out = {"versions": {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__}, "tasks": {}}
    for task in job["tasks"]:
        d, kind, r = task["dir"], task["kind"], task["repeats"]
        if kind == "spmm":
            m, k, n = task["m"], task["k"], task["n"]
            a = sp.csr_matrix((read(d, "vals.bin", np.float32), (read(d, "rows.bin", np.int32), read(d, "cols.bin", np.int32))), shape=(m, k))
            b = read(d, "b.bin", np.float32).reshape(k, n)
            out["tasks"][task["name"] + "/scipy"] = timed(lambda: a @ b, r)
            if task.get("dense"):
                ad = a.toarray()
                out["tasks"][task["name"] + "/numpy-dense"] = timed(lambda: ad @ b, r)
        else:
            shape = tuple(task["shape"])
            rows, cols, vals = read(d, "rows.bin", np.int32), read(d, "cols.bin", np.int32), read(d, "vals.bin", np.float32)
            if kind == "reorder":
                fn = lambda: (lambda o: (rows[o], cols[o], vals[o]))(np.lexsort((cols, rows)))
            elif kind == "to_dense":
                coo = sp.coo_matrix((vals, (rows, cols)), shape=shape)
                fn = lambda: coo.toarray()
            elif kind == "add":
                a = sp.csr_matrix((vals, (rows, cols)), shape=shape)
                b = sp.csr_matrix((read(d, "vals2.bin", np.float32), (read(d, "rows2.bin", np.int32), read(d, "cols2.bin", np.int32))), shape=shape)
                fn = lambda: a + b
            elif kind == "reduce_sum":
                a = sp.csr_matrix((vals, (rows, cols)), shape=shape)
                fn = lambda: a.sum(axis=1)
            out["tasks"][task["name"] + "/scipy"] = timed(fn, r)
    print(json.dumps(out))


main()
