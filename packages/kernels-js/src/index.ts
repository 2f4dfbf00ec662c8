export * from './generated/kernel-types.js';
export { kernels } from './generated/registry.js';
