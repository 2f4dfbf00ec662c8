/**
 * WGSL: `lastAtMost(i, count)`, the last position k < count with arr[k] <= i, for `arr` a non-decreasing array with
 * arr[0] <= i < arr[count] (row pointers, or first products): the row, or entry, that position i falls in, skipping
 * empty ones. A binary search, O(log count); `arr` is the storage array's name in the module.
 */
export const lastAtMost = (arr: string) => `fn lastAtMost(i: u32, count: u32) -> u32 {
  var lo = 0u;
  var hi = count;
  while (hi - lo > 1u) {
    let mid = (lo + hi) / 2u;
    if (${arr}[mid] <= i) { lo = mid; } else { hi = mid; }
  }
  return lo;
}`;
