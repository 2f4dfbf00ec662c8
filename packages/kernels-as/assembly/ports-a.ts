// Hand-written wasm kernels of structural ops (group a): concrete per-dtype exports only.
