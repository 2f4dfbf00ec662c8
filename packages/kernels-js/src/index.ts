// The reference backend: every op's kernel, by op id. The types they speak are @sparse/kernel-abi's.
export { kernels } from './generated/registry.js';
export { WIDE_KERNELS } from './wide/index.js';
