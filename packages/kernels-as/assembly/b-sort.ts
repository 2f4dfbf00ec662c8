// A stable sort of a permutation by i64 keys (group b): bottom-up merge sort, O(n log n), no allocation — the
// caller hands in the scratch buffers.

const RUN = 16;

/**
 * Sorts entries 0..n by `keys` (i64 [n]), stably: on return `perm` (i32 [n]) lists the entries in key order, ties
 * in their input order, and `keys` holds the sorted keys. `tmpKeys` (i64 [n]) and `tmpPerm` (i32 [n]) are scratch.
 * Already-ordered input costs one linear pass.
 */
export function sortByKeys(keys: usize, perm: usize, n: i32, tmpKeys: usize, tmpPerm: usize): void {
  for (let i = 0; i < n; i++) store<i32>(perm + (<usize>i << 2), i);
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = load<i64>(keys + (<usize>(i - 1) << 3)) <= load<i64>(keys + (<usize>i << 3));
  if (sorted) return;
  // Runs of RUN entries by insertion sort (stable: an entry moves left only past strictly larger keys).
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = min(lo + RUN, n);
    for (let i = lo + 1; i < hi; i++) {
      const k = load<i64>(keys + (<usize>i << 3));
      const p = load<i32>(perm + (<usize>i << 2));
      let j = i - 1;
      while (j >= lo && load<i64>(keys + (<usize>j << 3)) > k) {
        store<i64>(keys + (<usize>(j + 1) << 3), load<i64>(keys + (<usize>j << 3)));
        store<i32>(perm + (<usize>(j + 1) << 2), load<i32>(perm + (<usize>j << 2)));
        j--;
      }
      store<i64>(keys + (<usize>(j + 1) << 3), k);
      store<i32>(perm + (<usize>(j + 1) << 2), p);
    }
  }
  // Merge passes, ping-ponging between the buffers.
  let srcK = keys;
  let srcP = perm;
  let dstK = tmpKeys;
  let dstP = tmpPerm;
  for (let width = RUN; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = min(lo + width, n);
      const hi = min(lo + (width << 1), n);
      mergeRuns(srcK, srcP, lo, mid, hi, dstK, dstP);
    }
    const k = srcK;
    srcK = dstK;
    dstK = k;
    const p = srcP;
    srcP = dstP;
    dstP = p;
  }
  if (srcK != keys) {
    memory.copy(keys, srcK, <usize>n << 3);
    memory.copy(perm, srcP, <usize>n << 2);
  }
}

/** Merges the sorted runs [lo, mid) and [mid, hi) of src into dst at lo, the left run first on equal keys. */
@inline function mergeRuns(srcK: usize, srcP: usize, lo: i32, mid: i32, hi: i32, dstK: usize, dstP: usize): void {
  if (mid >= hi || load<i64>(srcK + (<usize>(mid - 1) << 3)) <= load<i64>(srcK + (<usize>mid << 3))) {
    memory.copy(dstK + (<usize>lo << 3), srcK + (<usize>lo << 3), <usize>(hi - lo) << 3);
    memory.copy(dstP + (<usize>lo << 2), srcP + (<usize>lo << 2), <usize>(hi - lo) << 2);
    return;
  }
  let i = lo;
  let j = mid;
  let k = lo;
  let ki = load<i64>(srcK + (<usize>i << 3));
  let kj = load<i64>(srcK + (<usize>j << 3));
  while (true) {
    if (ki <= kj) {
      store<i64>(dstK + (<usize>k << 3), ki);
      store<i32>(dstP + (<usize>k << 2), load<i32>(srcP + (<usize>i << 2)));
      k++;
      if (++i == mid) break;
      ki = load<i64>(srcK + (<usize>i << 3));
    } else {
      store<i64>(dstK + (<usize>k << 3), kj);
      store<i32>(dstP + (<usize>k << 2), load<i32>(srcP + (<usize>j << 2)));
      k++;
      if (++j == hi) break;
      kj = load<i64>(srcK + (<usize>j << 3));
    }
  }
  if (i < mid) {
    memory.copy(dstK + (<usize>k << 3), srcK + (<usize>i << 3), <usize>(mid - i) << 3);
    memory.copy(dstP + (<usize>k << 2), srcP + (<usize>i << 2), <usize>(mid - i) << 2);
  } else if (j < hi) {
    memory.copy(dstK + (<usize>k << 3), srcK + (<usize>j << 3), <usize>(hi - j) << 3);
    memory.copy(dstP + (<usize>k << 2), srcP + (<usize>j << 2), <usize>(hi - j) << 2);
  }
}
