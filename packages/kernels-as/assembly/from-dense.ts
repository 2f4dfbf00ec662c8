// from_dense: the non-zeros of dense data (v != 0: -0 is zero, NaN is kept), in row-major order.

@inline function lanesNonzero<T>(v: v128): v128 {
  const z = i64x2.splat(0);
  if (isFloat<T>()) return sizeof<T>() == 4 ? f32x4.ne(v, z) : f64x2.ne(v, z);
  return sizeof<T>() == 4 ? i32x4.ne(v, z) : i64x2.ne(v, z);
}

@inline function maskNonzero<T>(v: v128): i32 {
  const m = lanesNonzero<T>(v);
  return sizeof<T>() == 4 ? i32x4.bitmask(m) : i64x2.bitmask(m);
}

/** How many of the `size` elements are not zero. */
@inline function countNonzero<T>(data: usize, size: i32): i32 {
  const lanes = 16 / <i32>sizeof<T>();
  const nv = size - (size % lanes);
  let count = 0;
  let i = 0;
  for (; i < nv; i += lanes) count += <i32>popcnt<i32>(maskNonzero<T>(v128.load(data + ((<usize>i) << alignof<T>()))));
  for (; i < size; i++) if (load<T>(data + ((<usize>i) << alignof<T>())) != 0) count++;
  return count;
}

/**
 * Writes the index row and value of every non-zero of dense data of `shape` (rank i32; `counter` rank zeroed
 * i32, the odometer over the outer dims) into outIdx / outVals; returns how many. Rank 0 is one element.
 */
@inline function fromDense<T>(
  data: usize,
  shape: usize,
  rank: i32,
  counter: usize,
  outIdx: usize,
  outVals: usize,
): i32 {
  const outer = rank == 0 ? 0 : rank - 1;
  const inner = rank == 0 ? 1 : load<i32>(shape + ((<usize>outer) << 2));
  let rows = 1;
  for (let d = 0; d < outer; d++) rows *= load<i32>(shape + ((<usize>d) << 2));
  if (inner == 0 || rows == 0) return 0;
  const lanes = 16 / <i32>sizeof<T>();
  const rowBytes = (<usize>rank) << 2;
  let k = 0;
  let src = data;
  for (let r = 0; r < rows; r++) {
    let j = 0;
    while (j < inner) {
      // Skip a vector of zeros at once; otherwise take elements one by one.
      if (j + lanes <= inner && maskNonzero<T>(v128.load(src + ((<usize>j) << alignof<T>()))) == 0) {
        j += lanes;
        continue;
      }
      const end = min(j + lanes, inner);
      for (; j < end; j++) {
        const v = load<T>(src + ((<usize>j) << alignof<T>()));
        if (v != 0) {
          const row = outIdx + <usize>k * rowBytes;
          if (outer > 0) memory.copy(row, counter, (<usize>outer) << 2);
          if (rank > 0) store<i32>(row + ((<usize>outer) << 2), j);
          store<T>(outVals + ((<usize>k) << alignof<T>()), v);
          k++;
        }
      }
    }
    src += (<usize>inner) << alignof<T>();
    // The odometer over the outer dims: amortized O(1) a row.
    for (let d = outer - 1; d >= 0; d--) {
      const p = counter + ((<usize>d) << 2);
      const x = load<i32>(p) + 1;
      if (x < load<i32>(shape + ((<usize>d) << 2))) {
        store<i32>(p, x);
        break;
      }
      store<i32>(p, 0);
    }
  }
  return k;
}

export function count_nonzero_float32(data: usize, size: i32): i32 {
  return countNonzero<f32>(data, size);
}
export function count_nonzero_float64(data: usize, size: i32): i32 {
  return countNonzero<f64>(data, size);
}
export function count_nonzero_int32(data: usize, size: i32): i32 {
  return countNonzero<i32>(data, size);
}
export function count_nonzero_int64(data: usize, size: i32): i32 {
  return countNonzero<i64>(data, size);
}
export function from_dense_float32(
  data: usize,
  shape: usize,
  rank: i32,
  counter: usize,
  outIdx: usize,
  outVals: usize,
): i32 {
  return fromDense<f32>(data, shape, rank, counter, outIdx, outVals);
}
export function from_dense_float64(
  data: usize,
  shape: usize,
  rank: i32,
  counter: usize,
  outIdx: usize,
  outVals: usize,
): i32 {
  return fromDense<f64>(data, shape, rank, counter, outIdx, outVals);
}
export function from_dense_int32(
  data: usize,
  shape: usize,
  rank: i32,
  counter: usize,
  outIdx: usize,
  outVals: usize,
): i32 {
  return fromDense<i32>(data, shape, rank, counter, outIdx, outVals);
}
export function from_dense_int64(
  data: usize,
  shape: usize,
  rank: i32,
  counter: usize,
  outIdx: usize,
  outVals: usize,
): i32 {
  return fromDense<i64>(data, shape, rank, counter, outIdx, outVals);
}
