/**
 * Where the compiled kernels are: dist/kernels.wasm, beside this module. Written as `new URL(literal,
 * import.meta.url)` because that is the form bundlers (webpack 5, Vite) recognise: they copy the file into the app's
 * output and rewrite the URL. Without a bundler the file is found beside the module wherever the folder is served.
 */
export const WASM_URL = new URL('./kernels.wasm', import.meta.url);
