/**
 * The one place that says when the wasm backend hands work to the JS kernels, and why. Such a result is reported
 * as `delegated`, never as `passed`.
 *
 * Whole ops: those whose spec says `dispatch: {wasm: js}` (sparse_eye). Single calls, by the rules below, each
 * kernel naming its rule when it applies one: values that wasm memory does not hold (bool, string), dims whose
 * indices do not fit i32, positions beyond i64, and calls whose buffers would not fit the wasm memory the kernels
 * allow themselves.
 */

export const WASM_BYTES = 2 ** 31;

export const REASONS = {
  notPorted: 'this op has no wasm kernel (its spec runs it on the JS kernels here): ran on the JS kernels',
  notNumeric: 'bool and string values are not held in wasm memory: ran on the JS kernels',
  wideDims: 'a dim exceeds 2^31-1, so its indices do not fit i32 in WebAssembly: ran on the JS kernels',
  beyondI64: 'a dense shape of 2^63 elements or more: positions beyond i64, ran on the JS kernels',
  mixedIds: 'sparse_merge ids of mixed int32/int64 dtypes: ran on the JS kernels',
  heapExhausted: (needed: number, limit: number) =>
    `this call needs ${needed} bytes of wasm memory, more than the ${limit} its kernels may use (or the engine grants): ran on the JS kernels`,
  tooBig: `the buffers of this call would exceed the ${WASM_BYTES / 2 ** 30} GiB of wasm memory the kernels allow themselves: ran on the JS kernels`,
} as const;
