"""scipy's CSR @ dense on a data dir, kept loaded so the profile can time it in turns with our calls (the same
product as bench/peers/numpy_peer.py, single-threaded BLAS env from the parent).

Usage: scipy_loop.py DIR M K N, then one line per turn on stdin: the number of calls; answers one JSON line
{"median_ms", "min_ms", "checksum"}. Prints {"ready": versions} once loaded."""
import json, os, sys, time

import numpy as np
import scipy
import scipy.sparse as sp

d, m, k, n = sys.argv[1], *map(int, sys.argv[2:5])
read = lambda name, t: np.fromfile(os.path.join(d, name), dtype=t)
a = sp.csr_matrix((read("vals.bin", np.float32), (read("rows.bin", np.int32), read("cols.bin", np.int32))), shape=(m, k))
b = read("b.bin", np.float32).reshape(k, n)
out = a @ b  # warm-up
print(json.dumps({"ready": {"numpy": np.__version__, "scipy": scipy.__version__}}), flush=True)
for line in sys.stdin:
    t = []
    for _ in range(int(line)):
        s = time.perf_counter()
        out = a @ b
        t.append((time.perf_counter() - s) * 1e3)
    t.sort()
    print(json.dumps({"median_ms": t[len(t) // 2], "min_ms": t[0], "checksum": float(np.abs(out).sum(dtype=np.float64))}), flush=True)
