// Names for the wasm frames of a CPU profile. V8 shows a wasm function without a name section (asc -O3 strips
// it) as wasm-function[N], N its index in the module's function space; the export section maps indices to the
// names the JS side calls. An index with no export is an internal helper the optimizer did not inline.
import { readFileSync } from 'node:fs';

/** Map of function index → export name, from a .wasm file's export section (imports come first in the space). */
export function wasmExportNames(path) {
  const b = readFileSync(path);
  let p = 8; // magic + version
  const leb = () => {
    let x = 0;
    let shift = 0;
    for (;;) {
      const byte = b[p++];
      x += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (byte < 0x80) return x;
    }
  };
  const names = new Map();
  while (p < b.length) {
    const id = b[p++];
    const size = leb();
    const end = p + size;
    if (id === 7) {
      for (let count = leb(); count > 0; count--) {
        const len = leb();
        const name = b.toString('utf8', p, p + len);
        p += len;
        const kind = b[p++];
        const index = leb();
        if (kind === 0) names.set(index, names.has(index) ? `${names.get(index)}|${name}` : name);
      }
    }
    p = end;
  }
  return names;
}
