// asc --bindings raw writes dist/kernels.d.ts (each export's signature, which the JS side types its calls with)
// and dist/kernels.js, a wrapper layer the JS side does not use (it calls the exports directly): removed, so that
// it is neither shipped nor bundled.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist/kernels.js', import.meta.url));
