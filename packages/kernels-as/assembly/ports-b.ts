// Hand-written wasm kernels of structural ops (group b): concrete per-dtype exports only.
