// latest.md: the tables of results.json, with the ratios against each peer. Times are medians in milliseconds
// (min and max of every figure are in latest.json); a ratio is ours ÷ the peer, below 1 ours is faster.
import { DISPOSED_OPS, OPS } from '../sections/ops.mjs';
import { TF_TABLE_SOURCE } from './tf-published.mjs';
import { SCALING_REFERENCE, densePair, gpuRatios, ratioByDensity, scalingVerdict, targets } from './summary.mjs';

const ms = (r) => (r?.median_ms > 0 ? fmt(r.median_ms) : r?.error ? 'error' : '—');
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 0.001 ? x.toPrecision(3) : x.toExponential(1));
const x = (v) => (v > 0 && Number.isFinite(v) ? `${v >= 10 ? v.toFixed(1) : v.toFixed(2)}×` : '—');
const num = (v) => (v > 0 ? (v >= 10 ? v.toFixed(1) : v.toPrecision(2)) : '—');
const row = (cells) => `| ${cells.join(' | ')} |`;
const head = (cells) => [row(cells), row(cells.map(() => '---'))];
const ratioOf = (a, b) => (a?.median_ms > 0 && b?.median_ms > 0 ? a.median_ms / b.median_ms : undefined);

export function markdown(r, chartFile) {
  const backends = r.backends.available;
  const L = [];
  const v = { ...(r.peers.python?.versions ?? {}), ...(r.peers.tfjs?.versions ?? {}) };
  if (r.peers.native?.compiler) v.native = r.peers.native.compiler;
  L.push(`# sparse bench (${r.mode}), ${r.date}`, '');
  L.push(
    `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memory_gb} GB, ${r.machine.platform}, Node ${r.machine.node}.`,
  );
  L.push(
    `Versions: ${Object.entries(v)
      .map(([k, val]) => `${k} ${val}`)
      .join(', ')}.`,
  );
  L.push(
    `Backends: ${backends.join(', ')}${
      Object.keys(r.backends.unavailable).length
        ? `; unavailable: ${Object.entries(r.backends.unavailable)
            .map(([k, why]) => `${k} (${why})`)
            .join(', ')}`
        : ''
    }.`,
  );
  const threads = r.peers.python?.blas_threads_env?.OPENBLAS_NUM_THREADS;
  const tfThreads = r.peers.tfjs?.wasm?.threads ? 'TF.js wasm with threads' : 'TF.js (cpu, and wasm without threads)';
  L.push(
    `Threads: one for our backends, ${tfThreads} and the C++ loop; numpy's OpenBLAS ran with OPENBLAS_NUM_THREADS=${threads ?? 'unset'}.`,
  );
  const unavailable = Object.entries(r.peers).filter(([, p]) => p && p.available === false);
  if (unavailable.length)
    L.push(`Peers unavailable in this run: ${unavailable.map(([k, p]) => `${k} (${p.reason})`).join('; ')}.`);
  L.push(
    `Command: \`npm run bench${r.mode === 'quick' ? ' -- --quick' : ''}${partial(r) ? ` -- --only=${r.sections.join(',')}` : ''}\`, ${r.runtime_s.toFixed(0)} s. Times are medians in ms of tinybench runs after warm-up ` +
      `(the peers time only their own call, with the same warm-up and minimum count); min and max of every figure are in [latest.json](latest.json). ` +
      `A ratio is ours ÷ the peer: below 1, ours is faster. Every peer reads the same data, generated once and written to one temp dir.`,
    '',
  );

  // Headline and targets.
  const { headline, targets: tg } = targets(r, backends);
  if (headline) {
    L.push(
      `## Headline: sparse_tensor_dense_matmul, A 4096×4096 at 1% (${headline.nnz} stored), B 4096×128, float32`,
      '',
    );
    L.push(...head(['implementation', 'median ms', 'min ms', 'max ms']));
    for (const [key, res] of Object.entries(headline.results))
      L.push(row([label(key), ms(res), fmt0(res.min_ms), fmt0(res.max_ms)]));
    L.push('');
  }
  L.push('## Targets', '');
  L.push(...head(['target', 'measured', 'met']));
  for (const t of tg) L.push(row([t.target, `${x(t.measured)}${t.detail ? ` (${t.detail})` : ''}`, verdict(t)]));
  L.push('');
  if (r.spmm_grid) L.push(...gridMarkdown(r, backends, chartFile));
  if (r.ops) L.push(...opsMarkdown(r, backends));
  if (r.cold_start) L.push(...coldMarkdown(r.cold_start));
  if (r.scaling) L.push(...scalingMarkdown(r, backends));
  if (r.gpu) L.push(...gpuMarkdown(r.gpu), '');
  if (r.embedding) L.push(...embeddingMarkdown(r.embedding, backends));
  if (r.spgemm) L.push(...spgemmMarkdown(r.spgemm, backends));
  if (r.gcn) L.push(...gcnMarkdown(r.gcn, backends));

  // Checks.
  L.push('## Checks', '');
  if (r.spmm_grid) {
    const mism = r.spmm_grid.flatMap((p) =>
      p.mismatches.map((m) => `${p.density * 100}% n=${p.n} ${p.m}×${p.k}: ${m}`),
    );
    L.push(
      mism.length
        ? `Product checksums that disagree (sum of |C|, relative tolerance 1e-3):\n\n${mism.map((m) => `- ${m}`).join('\n')}`
        : 'Every SpMM product agreed across all implementations (sum of |C| within 1e-3 relative).',
      '',
    );
  }
  if (r.ops) {
    const o = r.ops;
    const sizeOff = OPS.filter((op) => new Set(Object.values(o.info[op].out_size)).size > 1);
    L.push(
      sizeOff.length
        ? `Output sizes that disagree: ${sizeOff.map((op) => `${op} ${JSON.stringify(o.info[op].out_size)}`).join('; ')}.`
        : 'Every other op produced the same number of entries (or elements) in every implementation.',
      '',
    );
  }
  return L.join('\n');
}

/** Whether the run left sections out (--only). */
function partial(r) {
  return r.sections && r.sections.length < 6;
}

/** The SpMM grid: the chart's table, TF's table reproduced, and the same points against the native peers. */
function gridMarkdown(r, backends, chartFile) {
  const L = [];
  // Chart and its table.
  const series = ratioByDensity(r.spmm_grid, backends);
  L.push('## Sparse vs dense by density', '');
  L.push(`![sparse/dense ratio by density](${chartFile})`, '');
  L.push(
    `dt(sparse)/dt(dense): geometric mean over TensorFlow's 12 points (n ∈ {1, 10, 25}, m, k ∈ {100, 1000}) at each density, with the range. ` +
      `Ours: ${backends.map((b) => `${b} against TF.js \`tf.matMul\` on \`${densePair(b).replace('tfjs-', '')}\``).join(', ')}, of the densified A (densifying not timed, as in TF's table).`,
    '',
  );
  L.push(...head(['series', ...series[0].byDensity.map((d) => `${d.density * 100}%`)]));
  for (const s of series)
    L.push(
      row([s.label, ...s.byDensity.map((d) => (d.geomean ? `${num(d.geomean)} (${num(d.min)}–${num(d.max)})` : '—'))]),
    );
  L.push('');

  // TF's table, reproduced.
  L.push("## TensorFlow's table, reproduced", '');
  L.push(
    `TF's published ratios are copied from ${TF_TABLE_SOURCE} (CPU rows; Ivybridge, 6 cores + HT; its GPU ratios are in latest.json). ` +
      `dt in ms. Per backend: ${backends.map((b) => `**${b}**: dense = TF.js ${densePair(b)} \`tf.matMul\`, sparse = ours on ${b}`).join('; ')}; **numpy/scipy**: dense = numpy \`@\`, sparse = scipy CSR \`@\`. ` +
      `Extended points (m = k = 4096, n = 128) are marked *.`,
    '',
  );
  const cols = ['density', 'n', 'm', 'k', 'TF ratio'];
  for (const b of backends) cols.push(`${b}: dt(dense)`, `${b}: dt(sparse)`, `${b}: ratio`);
  cols.push('numpy dt(dense)', 'scipy dt(sparse)', 'scipy ratio');
  L.push(...head(cols));
  for (const p of r.spmm_grid) {
    const c = [`${p.density * 100}%${p.extended ? '*' : ''}`, p.n, p.m, p.k, num(p.tf_published?.cpu_ratio)];
    for (const b of backends)
      c.push(ms(p.results[`dense/${densePair(b)}`]), ms(p.results[`sparse/${b}`]), x(p.ratios[`${b}: sparse/dense`]));
    c.push(ms(p.results['dense/numpy']), ms(p.results['sparse/scipy']), x(p.ratios['scipy: sparse/dense']));
    L.push(row(c));
  }
  L.push('');

  L.push('## The same points against the native peers', '');
  L.push(
    "Ours ÷ scipy CSR (`csr_matrix @ ndarray`) and ÷ the C++ CSR loop (g++ -O3 -march=native), and against numpy's dense BLAS matmul.",
    '',
  );
  const nc = ['density', 'n', 'm', 'k', 'stored', 'scipy ms', 'C++ ms'];
  for (const b of backends) nc.push(`${b} ÷ scipy`, `${b} ÷ C++`, `${b} ÷ numpy dense`);
  L.push(...head(nc));
  for (const p of r.spmm_grid) {
    const c = [
      `${p.density * 100}%${p.extended ? '*' : ''}`,
      p.n,
      p.m,
      p.k,
      p.nnz,
      ms(p.results['sparse/scipy']),
      ms(p.results['sparse/native-c++']),
    ];
    for (const b of backends)
      c.push(x(p.ratios[`${b} ÷ scipy`]), x(p.ratios[`${b} ÷ native C++`]), x(p.ratios[`${b}: sparse ÷ numpy dense`]));
    L.push(row(c));
  }
  L.push('');

  return L;
}

/** The 10^6-entry ops: each backend against scipy/numpy, results dropped and disposed, and TF.js where it has the op. */
function opsMarkdown(r, backends) {
  const L = [];
  const o = r.ops;
  L.push(`## Other ops on ${o.shape.nnz} stored entries of a ${o.shape.rows}×${o.shape.cols} float32 matrix`, '');
  const tfCols = (r.peers.tfjs?.backends ?? []).map((b) => `tfjs-${b}`);
  // Each backend against scipy/numpy, and against the TF.js backend it is paired with (js–cpu, wasm–wasm).
  const paired = backends.filter((b) => tfCols.includes(densePair(b)));
  const oc = [
    'op',
    ...backends.flatMap((b) => [`${b} ms`, `${b} disposed ms`]),
    ...tfCols.map((t) => `${t} ms`),
    'scipy/numpy ms',
    ...backends.flatMap((b) => [`${b} ÷ scipy`, `${b} disposed ÷ scipy`]),
    ...paired.map((b) => `${b} ÷ ${densePair(b)}`),
  ];
  L.push(...head(oc));
  for (const op of OPS) {
    const res = o.results[op];
    const c = [
      op,
      ...backends.flatMap((b) => [ms(res[b]), ms(res[`${b} disposed`])]),
      ...tfCols.map((t) => ms(res[t])),
      ms(res.scipy),
      ...backends.flatMap((b) => [x(ratioOf(res[b], res.scipy)), x(ratioOf(res[`${b} disposed`], res.scipy))]),
    ];
    for (const b of paired) c.push(x(ratioOf(res[b], res[densePair(b)])));
    L.push(row(c));
  }
  L.push(
    '',
    `Repeated calls on the same tensors (the wasm backend keeps their indices, values and row pointers prepared in its memory between calls: ${Object.entries(
      o.resident_bytes ?? {},
    )
      .filter(([, n]) => n > 0)
      .map(([b, n]) => `${b} held ${fmt(n / 2 ** 20)} MiB of them after the section`)
      .join(
        ', ',
      )}). "disposed": each result disposed as soon as it is made (${DISPOSED_OPS.join(', ')}), as TF.js code disposes what it is done with and as Python frees a result when its last reference goes, so that its memory serves the next result of its size; otherwise results are dropped, and their memory comes back when the garbage collector gets to it.`,
    '',
    'What each runs (the same work for every column):',
    '',
  );
  for (const op of OPS) {
    const i = o.info[op];
    const del = Object.entries(i.delegated).map(([b, why]) => `${b} delegated: ${why}`);
    L.push(
      `- **${op}**: ${i.work}. Peer: ${i.peer ?? '—'}.${i.tfjs ? ` TF.js: \`${i.tfjs}\`.` : ' TF.js: no such op.'}${del.length ? ` (${del.join('; ')})` : ''}`,
    );
  }
  L.push('');
  return L;
}

/** Embedding lookups: each backend against numpy's gather + segment sum, and wasm against js. */
function embeddingMarkdown(e, backends) {
  const L = [
    `## embedding_lookup_sparse: ${e.ids} ids into a ${e.vocab}×${e.dim} float32 table, ${e.batch} rows, combiner sum`,
    '',
  ];
  const cols = ['implementation', 'median ms', 'min ms', 'max ms', '÷ numpy'];
  if (backends.includes('js')) cols.push('÷ js');
  L.push(...head(cols));
  for (const name of [...backends, 'numpy']) {
    const res = e.results[name];
    const c = [name === 'numpy' ? 'numpy' : label(name), ms(res), fmt0(res?.min_ms), fmt0(res?.max_ms)];
    c.push(name === 'numpy' ? '—' : x(ratioOf(res, e.results.numpy)));
    if (backends.includes('js')) c.push(name === 'js' || name === 'numpy' ? '—' : x(ratioOf(res, e.results.js)));
    L.push(row(c));
  }
  const del = Object.entries(e.delegated ?? {}).map(([b, why]) => `${b} delegated: ${why}`);
  const held = Object.entries(e.resident_bytes ?? {}).filter(([, n]) => n > 0);
  L.push(
    '',
    `Repeated calls on the same table and ids${held.length ? ` (${held.map(([b, n]) => `${b} kept ${fmt(n / 2 ** 20)} MiB of them prepared`).join(', ')})` : ''}. Peer: ${e.peer ?? '—'}.${del.length ? ` (${del.join('; ')})` : ''}`,
    e.mismatches?.length
      ? `Checksums that disagree (sum of |output|): ${e.mismatches.join('; ')}.`
      : 'Every implementation gave the same output (sum of |output| within 1e-3 relative).',
    '',
  );
  return L;
}

/** The GCN: one training epoch per backend, and the share of it in the sparse products and their gradients. */
function gcnMarkdown(g, backends) {
  if (g.error) return ['## GCN training', '', `Not run: ${g.error}.`, ''];
  const L = [
    `## GCN training: ${g.nodes} nodes, ${g.edges} edges (stochastic block model, ${g.blocks} blocks), ${g.features} features, ${g.hidden} hidden`,
    '',
  ];
  L.push(...head(['backend', 'epoch median ms', 'min ms', 'max ms', 'sparse ops ms', '÷ js']));
  for (const name of backends) {
    const res = g.results[name];
    if (!res) continue;
    L.push(
      row([
        label(name),
        ms(res),
        fmt0(res.min_ms),
        fmt0(res.max_ms),
        fmt0(res.sparse_ms),
        name === 'js' ? '—' : x(ratioOf(res, g.results.js)),
      ]),
    );
  }
  L.push(
    '',
    `An epoch: the forward pass, the gradients and TF.js's Adam step (examples/gcn/gcn.mjs). "sparse ops": the time in the two sparse products Â·(X·W) and their gradients, on the backend; the rest (X·W, relu, the loss, Adam) is TF.js on its ${g.tfjs_backend} backend.`,
    '',
  );
  return L;
}

/** Cold start: first calls in fresh processes against the steady state. */
function coldMarkdown(c) {
  const L = ['## Cold start: the first calls in a fresh process', ''];
  L.push(
    'Each case ran in fresh Node processes (bench/lib/cold-worker.mjs): import the runtime, make the backend (timed: the wasm backend compiles its module and warms itself up), build the data, then time the first calls one by one. ' +
      "Medians over the processes of: the first call, the median of the first 10 calls, and the steady state, the median of the second half of the same process's calls. " +
      '"disposed": each result disposed as soon as it is made; "dropped": left to the garbage collector. "prepared": the operands readied by `rt.prepare` once built, as a server would at load (timed apart: prepare ms); otherwise the first call checks the operands and copies them into wasm memory, which later calls do not repeat. ' +
      '"fresh-page floor": what the same process then takes to write as many bytes as the first result holds into memory it never touched (the OS maps and zeroes each new page), which a first call pays for its result and later calls, reusing disposed results\' buffers, do not (it overlaps the call\'s own work, so it bounds the first call from below, not the excess over steady state). ' +
      'scipy: the same work on the same data (as in the tables above), its first calls timed the same way, each process a fresh Python process.',
    '',
  );
  L.push(
    ...head([
      'backend',
      'op',
      'size',
      'results',
      'operands',
      'processes × calls',
      'import ms',
      'make backend ms',
      'prepare ms',
      'first call ms',
      'first 10 ms',
      'steady ms',
      'first ÷ steady',
      'first 10 ÷ steady',
      'fresh-page floor ms',
      'scipy first ms',
      'scipy steady ms',
      'scipy first ÷ steady',
    ]),
  );
  for (const q of c.rows) {
    const what = [
      q.backend,
      q.op,
      q.size ?? '',
      q.dispose ? 'disposed' : 'dropped',
      q.prepare ? 'prepared' : 'first call',
    ];
    if (q.error) {
      L.push(row([...what, `error: ${q.error}`, ...Array(12).fill('')]));
      continue;
    }
    const sp = q.scipy;
    L.push(
      row([
        ...what,
        `${q.processes} × ${q.calls}`,
        fmt(q.import_ms),
        fmt(q.create_ms),
        q.prepare ? fmt(q.prepare_ms) : '—',
        fmt(q.first_ms),
        fmt(q.first10_ms),
        fmt(q.steady_ms),
        x(q.first_over_steady),
        x(q.first10_over_steady),
        q.fresh_pages_ms === undefined ? '—' : fmt(q.fresh_pages_ms),
        sp?.first_ms === undefined ? '—' : fmt(sp.first_ms),
        sp?.steady_ms === undefined ? '—' : fmt(sp.steady_ms),
        sp?.first_over_steady === undefined ? '—' : x(sp.first_over_steady),
      ]),
    );
  }
  L.push('');
  return L;
}

/** Scaling: time as the stored entries grow, and the growth exponents. */
function scalingMarkdown(r, backends) {
  const L = [];
  const s = r.scaling;
  L.push(`## Scaling: time as the stored entries grow (A m×m with ~${s.shape.per_row} per row, B m×${s.shape.n})`, '');
  const order = (k) => {
    const [op, impl] = k.split('/');
    const i = backends.indexOf(impl);
    return `${op === 'spmm' ? 0 : 1}${i >= 0 ? i : backends.length + (impl === 'native-c++' ? 1 : 0)}`;
  };
  const keys = [...new Set(s.points.flatMap((p) => Object.keys(p.results)))].sort((a, b) =>
    order(a).localeCompare(order(b)),
  );
  L.push(...head(['stored', 'm = k', ...keys.map((k) => `${label(k)} ms`)]));
  for (const p of s.points) L.push(row([p.nnz, p.m, ...keys.map((k) => ms(p.results[k]))]));
  L.push(
    '',
    'Growth exponent b of t ≈ c·nnz^b (least-squares slope of log t on log nnz); n log n itself shows the slope in the next column over these points.',
    '',
  );
  L.push(...head(['op / implementation', 'slope b', 'n log n slope', 'verdict']));
  for (const k of keys.filter((k) => s.fits[k])) {
    const ref = SCALING_REFERENCE[k.split('/')[0]];
    L.push(
      row([
        label(k),
        s.fits[k].slope.toFixed(2),
        s.fits[k].nlogn_slope.toFixed(2),
        ref === k ? `${scalingVerdict(s.fits[k])} (reference)` : scalingVerdict(s.fits[k], s.fits[ref], label(ref)),
      ]),
    );
  }
  L.push(
    '',
    "References: the C++ CSR loop is linear by construction and numpy's lexsort is n log n; where they too grow faster than that, " +
      `the excess is this machine's memory hierarchy (at the largest point B alone is ${fmt(((s.points.at(-1)?.m ?? 0) * s.shape.n * 4) / 2 ** 20)} MB, read at random rows), not the algorithm.`,
  );
  L.push('');
  return L;
}

/** The gpu section: compile once, run many; and pipelined against read back, when the backend has both. */
function gpuMarkdown(g) {
  const L = ['## GPU backend: compile once, run many', ''];
  if (!g.available) return [...L, `Not run: ${g.reason}`];
  const w = g.webgl ?? {};
  L.push(
    `gpu.js in ${g.mode} mode; WebGL: ${w.renderer ?? '?'} (${w.version ?? '?'}), max texture size ${w.max_texture_size ?? '?'}${w.gpu_device ? `; GPU device: ${w.gpu_device}` : ''}. ` +
      "First call: the first call of its size class, timed alone: it compiles that class's kernels (sizes within one ×16 class share them; " +
      'SpMM and reduce kernels also have their loop bound compiled in, the power of two at or above the longest row or group). ' +
      "Later: the median of the calls after it. Kernels compiled: the backend's count before the call, then + those the first call compiled, + those the later calls compiled. " +
      'js and wasm run the same calls; a ratio below 1 means the gpu is faster.',
    '',
  );
  L.push(
    ...head([
      'op',
      'size',
      'stored',
      'gpu first call ms',
      'gpu later ms',
      'first ÷ later',
      'kernels compiled',
      'js ms',
      'wasm ms',
      'gpu ÷ js',
      'gpu ÷ wasm',
    ]),
  );
  for (const c of g.cases) {
    if (c.error) {
      L.push(row([c.op, c.size, c.nnz, `error: ${c.error}`, '', '', '', '', '', '', '']));
      continue;
    }
    const q = gpuRatios(c);
    const k = c.compiled;
    L.push(
      row([
        c.op,
        c.size,
        c.nnz,
        fmt0(c.first_ms),
        ms(c.results.gpu),
        x(q.first_over_later),
        `${k.before} +${k.first_call} +${k.later_calls}`,
        ms(c.results.js),
        ms(c.results.wasm),
        x(q.gpu_over_js),
        x(q.gpu_over_wasm),
      ]),
    );
  }
  const delegated = g.cases.filter((c) => c.delegated);
  if (delegated.length)
    L.push(
      '',
      `Delegated to the JS kernels: ${delegated.map((c) => `${c.op} (${c.size}): ${c.delegated}`).join('; ')}.`,
    );
  const p = g.pipeline;
  if (p) {
    L.push('', '### Pipelined vs read back between stages', '');
    if (!p.rows) L.push(p.note ?? `error: ${p.error}`);
    else {
      L.push(
        `Calls of several GPU stages, on a backend with \`pipeline: true\` (a stage's result passed on as a texture; the default is ${p.default}) and one with \`pipeline: false\` (each stage's result read back and uploaded again).`,
        '',
      );
      L.push(
        ...head([
          'op',
          'size',
          'pipelined ms',
          'read back ms',
          'pipelined ÷ read back',
          'read-backs per call (pipelined / not)',
        ]),
      );
      for (const q of p.rows)
        L.push(
          row([
            q.op,
            q.size,
            ms(q.results.pipelined),
            ms(q.results['read back']),
            x(ratioOf(q.results.pipelined, q.results['read back'])),
            q.read_backs ? `${q.read_backs.pipelined} / ${q.read_backs['read back']}` : '—',
          ]),
        );
    }
  }
  return L;
}

/** SpGEMM: each backend against scipy's csr @ csr, per matrix. */
function spgemmMarkdown(s, backends) {
  const L = ['## Sparse × sparse: sparse_matrix_sparse_mat_mul against scipy `csr @ csr`, float32', ''];
  L.push(...head(['matrices', 'result nnz', 'scipy ms', ...backends.flatMap((b) => [`${b} ms`, `${b} ÷ scipy`])]));
  for (const [name, res] of Object.entries(s.results)) {
    const i = s.info[name];
    const nnz = Object.entries(i.out_nnz)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    L.push(row([i.work, nnz, ms(res.scipy), ...backends.flatMap((b) => [ms(res[b]), x(ratioOf(res[b], res.scipy))])]));
  }
  const delegated = Object.entries(s.info).flatMap(([n, i]) => Object.keys(i.delegated).map((b) => `${n} on ${b}`));
  L.push(
    '',
    'Ours keeps sums that cancel to 0 and sorts each row (TensorFlow), scipy drops those zeros and leaves rows unsorted.' +
      (delegated.length ? ` Delegated to the JS kernels: ${delegated.join(', ')}.` : ''),
    '',
  );
  return L;
}

function verdict(t) {
  if (t.met === undefined) return 'n/a';
  if (t.met) return 'yes';
  return t.measured > t.limit ? `no: ${x(t.measured / t.limit)} the limit` : `partly (${t.detail})`;
}

function fmt0(v) {
  return v > 0 ? fmt(v) : '—';
}

function label(key) {
  return key
    .replace(/^sparse\//, 'sparse: ')
    .replace(/^dense\//, 'dense: ')
    .replace('native-c++', 'native C++')
    .replace(/^(spmm|reorder)\//, '$1 ');
}
