import { createRuntime, CsrMatrix } from '@sparse/runtime';
import { randomCoo } from '/work/h-csr/bench/lib/data.mjs';
const rt = await createRuntime({ backend: 'wasm' });
function toCsr(c){const [rows]=c.shape;const rp=new Int32Array(rows+1);for(const r of c.rows)rp[r+1]++;for(let r=0;r<rows;r++)rp[r+1]+=rp[r];return new CsrMatrix(rp,c.cols,c.vals,c.shape,'float32');}
const d = Number(process.argv[2]||0.001);
const a = toCsr(randomCoo(4096,4096,d,41)), b = toCsr(randomCoo(4096,4096,d,51));
for (let i=0;i<5;i++) rt.run('sparse_matrix_sparse_mat_mul',{a,b}).output.dispose();
let t=performance.now(); const N=400;
for (let i=0;i<N;i++) rt.run('sparse_matrix_sparse_mat_mul',{a,b}).output.dispose();
console.log('run ms', (performance.now()-t)/N);
const js = await createRuntime({ backend: 'js' });
t=performance.now();
