/**
 * Where the compiled kernels are: build/kernels.wasm of this package, beside dist/. Its own module so that a bundle
 * that moves the file can swap this one module (the runtime's browser bundle puts kernels.wasm beside itself).
 */
export const WASM_URL = new URL('../build/kernels.wasm', import.meta.url);
