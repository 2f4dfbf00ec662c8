// Whether the wasm kernels' float32 value maps give the JS kernels' bits on every float32 input: AssemblyScript's
// NativeMath.<fn> in f64 rounded to f32 (what the generated kernels compute) against V8's Math.fround(Math.<fn>(x)).
// Not a test: every float32 input takes from a minute (expm1) to 40 (sin, tan: large arguments) per function here.
//
//   node packages/kernels-as/scripts/libm-float32-agreement.mjs [fn,fn,...] [inputs]
//
// With no arguments, all ten functions over all 2^32 bit patterns; `inputs` takes the first so many patterns
// (the positive floats from 0 up, then the negative ones). Prints one line per function: how many differ (nan
// payloads aside), and the first that does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FUNCTIONS = ['expm1', 'log1p', 'sin', 'cos', 'tan', 'tanh', 'asin', 'atan', 'sinh', 'cosh', 'asinh', 'atanh'];
const names = process.argv[2] ? process.argv[2].split(',') : FUNCTIONS;
const limit = Number(process.argv[3] ?? 2 ** 32);
const unknown = names.filter((n) => !FUNCTIONS.includes(n));
if (unknown.length) throw new Error(`unknown function(s) ${unknown.join(', ')}: the functions are ${FUNCTIONS}`);

const CHUNK = 1 << 20;
const source = `
export function run(fn: i32, lo: u32, n: i32, out: usize): void {
  for (let i = 0; i < n; i++) {
    const x = <f64>reinterpret<f32>(lo + <u32>i);
    let y: f64 = 0;
    switch (fn) {
${FUNCTIONS.map((f, i) => `      case ${i}: y = NativeMath.${f}(x); break;`).join('\n')}
    }
    store<f32>(out + (<usize>i << 2), <f32>y);
  }
}
export function alloc(bytes: i32): usize { return heap.alloc(<usize>bytes); }
`;

const work = mkdtempSync(join(tmpdir(), 'libm-agreement-'));
let wasm;
try {
  writeFileSync(join(work, 'probe.ts'), source);
  const asc = createRequire(import.meta.url).resolve('assemblyscript/bin/asc.js');
  const args = ['probe.ts', '--outFile', 'probe.wasm', '-O3', '--runtime', 'stub', '--noAssert'];
  execFileSync(process.execPath, [asc, ...args], { cwd: work, stdio: 'inherit' });
  wasm = readFileSync(join(work, 'probe.wasm'));
} finally {
  rmSync(work, { recursive: true, force: true });
}
const { instance } = await WebAssembly.instantiate(wasm, { env: { abort: () => {} } });
const { run, alloc, memory } = instance.exports;
const out = alloc(CHUNK * 4);

const inputBits = new Uint32Array(CHUNK);
const input = new Float32Array(inputBits.buffer);
const wantBits = new Uint32Array(CHUNK);
const want = new Float32Array(wantBits.buffer);
for (const name of names) {
  const f = Math[name];
  const started = Date.now();
  let differ = 0;
  let first = '';
  for (let lo = 0; lo < limit; lo += CHUNK) {
    const n = Math.min(CHUNK, limit - lo);
    run(FUNCTIONS.indexOf(name), lo, n, out);
    const gotBits = new Uint32Array(memory.buffer, out, n);
    const got = new Float32Array(memory.buffer, out, n);
    for (let i = 0; i < n; i++) inputBits[i] = lo + i;
    for (let i = 0; i < n; i++) want[i] = f(input[i]);
    for (let i = 0; i < n; i++) {
      if (gotBits[i] === wantBits[i] || (Number.isNaN(got[i]) && Number.isNaN(want[i]))) continue;
      differ++;
      first ||= ` (first: x = ${input[i]}: wasm ${got[i]}, js ${want[i]})`;
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`${name}: ${differ} of ${limit} float32 inputs differ${first} (${seconds} s)`);
}
