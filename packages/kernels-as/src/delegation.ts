/**
 * The one place that says which ops the wasm backend hands to the JS kernels, and why. A call of one of these
 * is reported as `delegated`, never as `passed`. (Ops with wasm kernels may still delegate a single call: bool or
 * string values, or dims beyond i32 — each such kernel says so itself.)
 */
export const DELEGATED_OPS: Readonly<Record<string, string>> = {
  from_dense: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_reorder: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_concat: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_split: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_slice: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_reshape: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_expand_dims: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_retain: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_reset_shape: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_fill_empty_rows: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_transpose: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_to_indicator: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_merge: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_softmax: 'not yet ported to WebAssembly: ran on the JS kernels',
  sparse_segment_sum: 'not yet ported to WebAssembly: ran on the JS kernels',
};
