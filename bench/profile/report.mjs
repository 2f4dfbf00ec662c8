// profile.md from the profile's results: the tables, the command, and a plain reading of each part computed from
// the figures (so a rerun after a change reads true for the new numbers).
import { logLogSlope } from '../lib/measure.mjs';

const fmt = (x, d = 3) =>
  x === undefined || !Number.isFinite(x)
    ? '—'
    : Math.abs(x) >= 100
      ? x.toFixed(0)
      : Math.abs(x) >= 1e-3 || x === 0
        ? x.toPrecision(d)
        : x.toExponential(1);
const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(x < 0.1 ? 1 : 0)}%` : '—');
const times = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');
const row = (cells) => `| ${cells.join(' | ')} |`;
const table = (head, rows) => [row(head), row(head.map(() => '---')), ...rows.map(row)];
const mb = (bytes) => fmt(bytes / 2 ** 20);
const SLOPE_REF = 'n log n';
/** A ratio against its target's limit, in words: met with room to spare, or missed by a share (a multiple past 2×). */
const against = (ratio, limit) => {
  const x = ratio / limit;
  return x <= 1 ? `met with ${pct(1 - x)} to spare` : `missed by ${x < 2 ? pct(x - 1) : `${times(x)} the limit`}`;
};
const range = (xs) =>
  fmt(Math.min(...xs)) === fmt(Math.max(...xs)) ? fmt(xs[0]) : `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;

export function report(r) {
  const L = [];
  L.push("# Where the time goes: profiles behind the bench's missed targets", '');
  L.push(
    `Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memory_gb} GB, ${r.machine.platform}, Node ${r.machine.node}. ${r.date}.`,
  );
  const tv = Object.entries(r.tools)
    .map(([k, t]) => `${k}: ${t.ok ? t.version : `missing (${t.reason})`}`)
    .join('; ');
  L.push(`Tools: ${tv}.`);
  L.push(
    `Command: \`npm run bench:profile${r.mode === 'quick' ? ' -- --quick' : ''}\` (bench/profile/run.mjs), ${r.runtime_s.toFixed(0)} s, ${r.mode} mode. Figures: [profile.json](profile.json).`,
    '',
  );
  L.push(
    "Two kinds of evidence. **Counts** come from valgrind's cachegrind and are deterministic: instructions executed and " +
      `simulated cache misses, for one call (two runs that differ only in the number of calls, subtracted). Cache model: ${r.scaling?.model ?? "this machine's L1d and L2"}; ` +
      'an "L2 miss" is a trip to L3 or DRAM. **Times** are wall-clock on a shared 2-core machine, so they are taken in turns: every ' +
      'contender runs a short turn in each round and the tables keep the median over rounds (ratios: the median of the per-round ratios).',
    '',
  );
  scalingSection(L, r);
  wasmSection(L, r);
  jsSection(L, r);
  const notes = [
    ...r.notes,
    ...['race', 'scaling', 'counts', 'wall', 'pages'].flatMap((k) => (r[k]?.notes ?? []).map((n) => `${k}: ${n}`)),
  ];
  if (notes.length) L.push('## Notes and skipped parts', '', ...notes.map((n) => `- ${n}`), '');
  return L.join('\n');
}

function perEntry(rowsByNnz, nnz, f) {
  const c = rowsByNnz.get(nnz)?.counts;
  return c ? f(c) / nnz : undefined;
}

function slope(points) {
  const fit = logLogSlope(points.filter((p) => p.y > 0));
  return fit;
}

function scalingSection(L, r) {
  L.push('## 1. Why the scaling slopes exceed n log n', '');
  L.push(
    "The scaling run's own matrices (A m×m with ~8 stored per row, B m×16 float32, the same seeds as bench/sections/scaling.mjs).",
    '',
  );
  const wall = r.wall ?? { native: {}, node: {} };
  const native = new Map((r.scaling?.native ?? []).map((x) => [x.nnz, x]));
  const pages = new Map((r.pages?.rows ?? []).map((x) => [x.nnz, x]));
  const sizes = [...new Set([...native.keys(), ...Object.keys(wall.native ?? {}).map(Number), ...pages.keys()])].sort(
    (a, b) => a - b,
  );
  const ms = new Map(sizes.map((s) => [s, native.get(s)?.m ?? Math.round(s / 8)]));
  if (sizes.length) {
    L.push(
      '**The native C++ CSR loop** (bench/peers/spmm.cpp). Data touched per call: A in CSR (cols + vals + row pointers), B and C.',
      '',
    );
    L.push(
      ...table(
        [
          'stored',
          'm = k',
          'data touched',
          'instructions / entry',
          'D1 misses / entry',
          'L2 misses / entry',
          'wall ns / entry',
          'time on 2 MB pages ÷ 4 KB pages',
        ],
        sizes.map((s) => {
          const m = ms.get(s);
          const w = wall.native?.[s];
          return [
            s,
            m,
            `${mb(m * 16 * 4 * 2 + 8 * s + 4 * m)} MB`,
            fmt(perEntry(native, s, (c) => c.total.Ir)),
            fmt(perEntry(native, s, (c) => c.total.D1)),
            fmt(perEntry(native, s, (c) => c.total.LL)),
            fmt(w ? (w * 1e6) / s : undefined),
            times(pages.get(s)?.ratio),
          ];
        }),
      ),
      '',
    );
  }
  const nodeKeys = Object.keys(r.scaling?.node ?? wall.node ?? {});
  for (const key of nodeKeys) {
    const counts = new Map((r.scaling?.node?.[key] ?? []).map((x) => [x.nnz, x]));
    const w = wall.node?.[key] ?? {};
    const sz = [...new Set([...counts.keys(), ...Object.keys(w).map(Number)])].sort((a, b) => a - b);
    const reorder = key.endsWith('reorder');
    L.push(
      `**Ours: ${key}** (the whole \`rt.run\` call, wasm backend as the bench runs it). Instructions split by where cachegrind finds them: "our code" is JIT-compiled code (the wasm kernels, optimized JS); "copies" is glibc memcpy/memset (data into and out of wasm memory, zeroing new buffers), which for mid-sized copies uses \`rep movsb\`, counted once per byte; "rest" is V8 and libc (GC, builtins, allocation).`,
      '',
    );
    const head = [
      'stored',
      'instructions / entry: our code',
      'copies',
      'rest',
      'D1 misses / entry',
      'L2 misses / entry',
      'of which in copies',
      'wall ns / entry',
    ];
    if (reorder) head.splice(1, 0, 'radix passes');
    L.push(
      ...table(
        head,
        sz.map((s) => {
          const m = counts.get(s)?.m ?? ms.get(s) ?? Math.round(s / 8);
          const cat = (c, k, e) => c.byCategory[k][e];
          const copies = (e) => (c) => cat(c, 'memcpy', e) + cat(c, 'memset', e);
          const cells = [
            s,
            fmt(perEntry(counts, s, (c) => cat(c, 'jit', 'Ir'))),
            fmt(perEntry(counts, s, copies('Ir'))),
            fmt(perEntry(counts, s, (c) => cat(c, 'other', 'Ir'))),
            fmt(perEntry(counts, s, (c) => c.total.D1)),
            fmt(perEntry(counts, s, (c) => c.total.LL)),
            fmt(perEntry(counts, s, copies('LL'))),
            fmt(w[s] ? (w[s] * 1e6) / s : undefined),
          ];
          if (reorder) cells.splice(1, 0, radixPasses(m));
          return cells;
        }),
      ),
      '',
    );
  }
  // Slopes: the growth exponents the bench reports, here split into work and misses.
  const nat = [...native.values()];
  const sI = slope(nat.map((x) => ({ x: x.nnz, y: x.counts.total.Ir })));
  const sW = slope(sizes.map((s) => ({ x: s, y: wall.native?.[s] })));
  const slopeRows = [];
  if (sI) slopeRows.push(['native loop: instructions', fmt(sI.slope), fmt(sI.nlogn_slope)]);
  const sL = slope(nat.map((x) => ({ x: x.nnz, y: x.counts.total.LL })).filter((p) => p.x >= 1e5));
  if (sL) slopeRows.push(['native loop: L2 misses (from 10^5, where they start)', fmt(sL.slope), fmt(sL.nlogn_slope)]);
  const bench = (k) => fmt(r.bench_slopes?.fits?.[k]);
  if (sW) slopeRows.push(['native loop: wall time', fmt(sW.slope), fmt(sW.nlogn_slope), bench('spmm/native-c++')]);
  const hp = sizes.filter((s) => pages.get(s)?.huge_ms > 0);
  const sH = slope(hp.map((s) => ({ x: s, y: pages.get(s).huge_ms })));
  if (sH) slopeRows.push(['native loop: wall time on 2 MB pages', fmt(sH.slope), fmt(sH.nlogn_slope)]);
  for (const key of nodeKeys) {
    const w = wall.node?.[key] ?? {};
    const sw = slope(Object.keys(w).map((s) => ({ x: Number(s), y: w[s] })));
    if (sw)
      slopeRows.push([
        `${key}: wall time`,
        fmt(sw.slope),
        fmt(sw.nlogn_slope),
        bench(`${key.split(' ')[1]}/${key.split(' ')[0]}`),
      ]);
    const cs = r.scaling?.node?.[key] ?? [];
    const si = slope(cs.map((x) => ({ x: x.nnz, y: x.counts.byCategory.jit.Ir })));
    if (si)
      slopeRows.push([`${key}: instructions of our code (${cs.length} sizes)`, fmt(si.slope), fmt(si.nlogn_slope)]);
  }
  const benchNote = r.bench_slopes
    ? `; the last column is the slope the bench's own last run reported (latest.json, ${r.bench_slopes.date?.slice(0, 10)}, ${r.bench_slopes.machine}: another machine, tinybench timing)`
    : '';
  if (slopeRows.length)
    L.push(
      `Growth exponents b of y ≈ c·nnz^b (least-squares log-log slope over the points above; "${SLOPE_REF} slope" is what n log n itself gives over the same points${benchNote}):`,
      '',
      ...table(
        ['series', 'slope', `${SLOPE_REF} slope`, ...(r.bench_slopes ? ["bench's last run"] : [])],
        slopeRows.map((x) => (r.bench_slopes ? [x[0], x[1], x[2], x[3] ?? ''] : x.slice(0, 3))),
      ),
      '',
    );
  const others = Object.entries(r.bench_slopes?.fits ?? {}).filter(
    ([k]) => !['spmm/native-c++', 'spmm/wasm', 'reorder/wasm'].includes(k),
  );
  if (others.length)
    L.push(`The bench's last run also reported: ${others.map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}.`, '');
  L.push(...scalingReading(r, nat, sizes, wall, pages, ms, sI, sW, sH), '');
}

function radixPasses(m) {
  const bits = Math.floor(Math.log2(Math.max(1, m * m - 1))) + 1;
  return `${Math.ceil(bits / 11)} (${bits}-bit keys)`;
}

function scalingReading(r, nat, sizes, wall, pages, ms, sI, sW, sH) {
  if (!nat.length) return ['*Reading:* no cachegrind counts in this run (see the notes).'];
  const ir = nat.map((x) => x.counts.total.Ir / x.nnz);
  const first = nat[0];
  const last = nat[nat.length - 1];
  const ll = (x) => x.counts.total.LL / x.nnz;
  const ns = (s) => (wall.native?.[s] ? (wall.native[s] * 1e6) / s : undefined);
  const bMB = (s) => mb(ms.get(s) * 16 * 4);
  const big = sizes.filter((s) => pages.get(s)?.ratio > 0 && s >= 9e5).map((s) => 1 - pages.get(s).ratio);
  const out = [];
  out.push(
    `*Reading.* The native loop executes ${range(ir)} instructions per stored entry at every size` +
      (sI ? ` (total instructions grow with slope ${fmt(sI.slope)})` : '') +
      `: the work is linear, as the algorithm is. What grows is the misses: ${fmt(ll(first))} L2 misses per entry at ${first.nnz} stored, ${fmt(ll(last))} at ${last.nnz}, once B (${bMB(last.nnz)} MB at the largest point, read a random row per entry) and the index arrays no longer fit the ${r.scaling?.model?.match(/LL = L2 ([\d.]+ MB)/)?.[1] ?? '2 MB'} L2.` +
      (ns(first.nnz) && ns(last.nnz) && ns(last.nnz) > 1.5 * ns(first.nnz)
        ? ` The time per entry follows the misses, not the instructions: ${fmt(ns(first.nnz))} ns at ${first.nnz}, ${fmt(ns(last.nnz))} ns at ${last.nnz}` +
          (sW ? `, a wall-time slope of ${fmt(sW.slope)} against ${fmt(sW.nlogn_slope)} for n log n.` : '.')
        : ''),
  );
  if (big.length)
    out.push(
      `Cachegrind does not model the TLB: on 2 MB pages the points from 10^6 up take ${pct(Math.min(...big))}–${pct(Math.max(...big))} less time, so address translation is a part of the excess` +
        (sH && sW
          ? `, but a small one: on huge pages the slope is still ${fmt(sH.slope)} (${fmt(sW.slope)} on 4 KB pages). The rest of the excess tracks the L2 misses.`
          : '.'),
    );
  const ws = r.scaling?.node?.['wasm spmm'] ?? [];
  if (ws.length) {
    const jit = ws.map((x) => x.counts.byCategory.jit.Ir / x.nnz);
    const wl = ws.map((x) => x.counts.total.LL / x.nnz);
    const lastW = ws[ws.length - 1];
    const copyShare = (lastW.counts.byCategory.memcpy.LL + lastW.counts.byCategory.memset.LL) / lastW.counts.total.LL;
    out.push(
      `Our wasm SpMM does the same: its own code runs ${range(jit)} instructions per entry at ${ws.map((x) => x.nnz).join(', ')} stored, while its L2 misses per entry go ${wl.map((x) => fmt(x)).join(' → ')}` +
        (copyShare > 0.2
          ? `; ${pct(copyShare)} of them at ${lastW.nnz} are in the copies into and out of wasm memory (index check, inputs, result), which stream the data once more per call and which the native loop does not make.`
          : '.'),
    );
  }
  const wr = r.scaling?.node?.['wasm reorder'] ?? [];
  if (wr.length) {
    const jit = wr.map((x) => x.counts.byCategory.jit.Ir / x.nnz);
    const passes = wr.map((x) => radixPasses(x.m).split(' ')[0]);
    const rl = wr.map((x) => x.counts.total.LL / x.nnz);
    out.push(
      `The reorder's own instructions per entry (${jit.map((x) => fmt(x)).join(' → ')}) follow its radix passes (${passes.join(' → ')}: one per 11 bits of the key row·m + col, which has log2(m²) bits), its n log n; ` +
        `its L2 misses per entry go ${rl.map((x) => fmt(x)).join(' → ')} (each pass scatters into buffers the size of the data, then a gather), so its time grows faster than its instructions, as the SpMM's does.`,
    );
  }
  return [out.join(' ')];
}

function raceRows(race, prefix, rows) {
  const res = race.results;
  const whole = res[`${prefix}: whole call`]?.median_ms;
  return rows
    .filter(([name, ms]) => ms !== undefined || res[name])
    .map(([name, ms, what, label]) => {
      const x = ms ?? res[name]?.median_ms;
      const pf = res[name]?.page_faults;
      return [
        label ?? name.replace(`${prefix}: `, ''),
        fmt(x),
        pct(x / whole),
        pf === undefined ? '' : fmt(pf, 2),
        what,
      ];
    });
}

function cpuTable(L, cpu) {
  if (!cpu) return;
  L.push(
    `Self time by function, \`node --cpu-prof\` (100 µs sampling) over ${cpu.calls} calls (${fmt(cpu.msPerCall)} ms per call while profiled); "called from" tells apart a helper that serves two stages:`,
    '',
  );
  const top = cpu.functions.filter((f) => f.share >= 0.003).slice(0, 14);
  L.push(
    ...table(
      ['function', 'where', 'called from', 'stage', 'ms / call', 'share'],
      top.map((f) => [`\`${f.name}\``, f.where, f.caller, f.stage, fmt(f.msPerCall), pct(f.share)]),
    ),
    '',
  );
  L.push(`By stage: ${cpu.stages.map((s) => `${s.stage} ${pct(s.share)}`).join(', ')}.`, '');
}

function countsTable(L, counts, pick) {
  if (!counts?.rows?.length) return;
  const rows = counts.rows.filter((x) => pick(x.name));
  L.push(`Cachegrind, one call on the same data (${counts.macs} multiply-adds = stored × n):`, '');
  L.push(
    ...table(
      [
        'program',
        'instructions / call',
        'per multiply-add',
        'D1 misses / call',
        'L2 misses / call',
        'of which in copies (memcpy/memset)',
      ],
      rows.map(({ name, counts: c }) => [
        name,
        `${fmt(c.total.Ir / 1e6)} M`,
        fmt(c.total.Ir / counts.macs),
        `${fmt(c.total.D1 / 1e3)} k`,
        `${fmt(c.total.LL / 1e3)} k`,
        `${fmt((c.byCategory.memcpy.LL + c.byCategory.memset.LL) / 1e3)} k`,
      ]),
    ),
    '',
  );
}

function peerRows(race) {
  const res = race.results;
  return [
    ['native C++', race.peer?.native],
    ['scipy', race.peer?.scipy],
  ]
    .filter(([k]) => res[k])
    .map(([k, what]) => [k, fmt(res[k].median_ms), '', '', what]);
}

function wasmSection(L, r) {
  L.push('## 2. wasm SpMM at the headline point, against scipy', '');
  const race = r.race;
  if (!race?.results?.['wasm: whole call']) return L.push('Not measured in this run (see the notes).', '');
  const res = race.results;
  const g = (k) => res[k]?.median_ms;
  const { m, k, n, nnz } = race.meta;
  L.push(
    `A ${m}×${k} at 1% (${nnz} stored), B ${k}×${n}, float32. ${race.rounds} rounds of turns; ms are medians over rounds.`,
    '',
  );
  // Whatever stages of the kernel the run timed (an older profile.json names other stages than the rows below).
  const outside = ['whole call', 'index check', 'of which indices_valid', 'kernel (all stages)'].map(
    (x) => `wasm: ${x}`,
  );
  const stageSum = Object.keys(res)
    .filter((x) => x.startsWith('wasm: ') && !outside.includes(x))
    .reduce((a, x) => a + g(x), 0);
  const glue = g('wasm: whole call') - (g('wasm: kernel (all stages)') ?? 0) - (g('wasm: index check') ?? 0);
  const extra = g('wasm: kernel (all stages)') - stageSum;
  L.push(
    ...table(
      ['part of the call', 'ms', 'share of the call', 'minor page faults / call', 'what'],
      [
        ...raceRows(race, 'wasm', [
          ['wasm: whole call', undefined, "`rt.run('sparse_tensor_dense_matmul')`, as the bench times it"],
          [
            'wasm: index check',
            undefined,
            "the runtime's check (validate-sparse.ts → the backend's `indicesValid`): indices copied in as f64, then `indices_valid`",
          ],
          [
            'wasm: of which indices_valid',
            undefined,
            'the export alone, indices already in wasm memory',
            '  of which `indices_valid`',
          ],
          [
            'wasm: kernel (all stages)',
            undefined,
            'the backend kernel on checked arguments (the stages below, in one call; alone, it copies the indices in itself)',
          ],
          [
            'wasm: runs pass',
            undefined,
            "`spmm_runs`: B-row offsets and each row's runs, cut by slabs of B's rows, in one pass over the entries (in row order)",
          ],
          [
            'wasm: copy in',
            undefined,
            "values and B into wasm memory (in the real call the indices are the index check's copy)",
          ],
          ['wasm: multiply', undefined, '`spmm_float32`, the kernel proper, slab by slab'],
          [
            'wasm: copy out',
            undefined,
            'the m×n result sliced out of wasm memory into a new Float32Array (its allocation included)',
          ],
          [
            '',
            Number.isFinite(extra) ? extra : undefined,
            'the kernel minus its stages timed alone: what they cost more together (cache state, fresh output memory)',
            'kernel − its stages alone',
          ],
          [
            '',
            Number.isFinite(glue) ? glue : undefined,
            'argument binding, the shape checks, wrapping the output',
            'runtime glue (whole − check − kernel)',
          ],
        ]),
        ...peerRows(race),
      ],
    ),
    '',
  );
  const ratios = [
    'wasm: whole call ÷ scipy',
    'wasm: whole call ÷ native C++',
    'wasm: multiply ÷ native C++',
    'wasm: multiply ÷ scipy',
    'native C++ ÷ scipy',
  ].filter((x) => race.ratios[x] !== undefined);
  if (ratios.length)
    L.push(
      `Ratios (median of per-round ratios): ${ratios.map((x) => `${x.replace('wasm: ', '')} **${times(race.ratios[x])}**`).join('; ')}. Targets: wasm ≤ 1.0× scipy, ≤ 2× native.`,
      '',
    );
  cpuTable(L, r.cpu?.wasm);
  countsTable(L, r.counts, (name) => !name.startsWith('js'));
  // Reading.
  const w = g('wasm: whole call');
  const s = g('scipy');
  const nat = g('native C++');
  const cnt = (p) => r.counts?.rows?.find((x) => x.name.startsWith(p))?.counts;
  const cn = cnt('native');
  const cm = cnt('wasm: spmm_float32');
  const cw = cnt('wasm: whole');
  const rs = race.ratios['wasm: whole call ÷ scipy'];
  const rm = race.ratios['wasm: multiply ÷ native C++'];
  const out = [];
  out.push(
    `*Reading.* The whole wasm call took ${fmt(w)} ms` +
      (s ? ` against scipy's ${fmt(s)} ms (${times(rs)}; the target is ≤ 1.0×, ${against(rs, 1)})` : '') +
      (nat ? ` and the native loop's ${fmt(nat)} ms` : '') +
      '.',
  );
  if (nat)
    out.push(
      `The multiply alone took ${fmt(g('wasm: multiply'))} ms, ${times(rm)} the native loop` +
        (cn && cm
          ? `; cachegrind counts ${fmt(cm.total.Ir / r.counts.macs)} instructions per multiply-add for it against the native loop's ${fmt(cn.total.Ir / r.counts.macs)}, and ${fmt(cm.total.LL / 1e3)} k L2 misses against ${fmt(cn.total.LL / 1e3)} k`
          : '') +
        (rm <= 1
          ? ': the kernel proper is not where the gap is.'
          : ': the kernel proper is itself slower than the native loop.'),
    );
  const over = w - (g('wasm: multiply') ?? 0);
  // Differences of medians timed apart: below 2% of the call they are noise, not a cost.
  const noise = 0.02 * w;
  out.push(
    `The other ${fmt(over)} ms (${pct(over / w)} of the call) are the index check (${fmt(g('wasm: index check'))}), the runs pass (${fmt(g('wasm: runs pass'))}), copying the inputs in (${fmt(g('wasm: copy in'))}), the copy out (${fmt(g('wasm: copy out'))}, alone), ` +
      (extra > noise ? `${fmt(extra)} ms more when the stages run together than alone, ` : '') +
      (glue > noise ? `and ${fmt(glue)} ms of runtime glue.` : 'and runtime glue within the noise of these medians.'),
  );
  if (cw && cn)
    out.push(
      `The copies show in the counts too: the whole call misses L2 ${fmt(cw.total.LL / 1e3)} k times, ${fmt((cw.byCategory.memcpy.LL + cw.byCategory.memset.LL) / 1e3)} k of them in memcpy/memset, against ${fmt(cn.total.LL / 1e3)} k for the native loop, which reads its inputs in place.`,
    );
  const core = g('wasm: runs pass') + g('wasm: multiply');
  if (s && core)
    out.push(
      `The kernel's own two passes (runs + multiply) come to ${fmt(core)} ms, ${times(core / s)} scipy: ` +
        (rs <= 1
          ? 'with all that surrounds them the call still meets the target.'
          : core < s
            ? 'the target is missed by what surrounds them.'
            : 'they alone miss the target.'),
    );
  const pw = res['wasm: whole call']?.page_faults;
  const pages = (m * n * 4) / 4096;
  if (pw > pages / 2)
    out.push(
      `In this run the whole call also took ${fmt(pw)} minor page faults (the copy out alone: ${fmt(res['wasm: copy out']?.page_faults)}) for a result of ${pages} pages of 4 KB: the new result array mostly got fresh pages from the allocator, which the OS maps and zeroes on first touch, inside the copy out. ` +
        "How many depends on the allocator's state (recycled or fresh memory), so the copy out's time varies between runs more than the other stages'.",
    );
  L.push(out.join(' '), '');
}

function jsSection(L, r) {
  L.push('## 3. JS SpMM at the headline point, against scipy', '');
  const race = r.race;
  if (!race?.results?.['js: whole call']) return L.push('Not measured in this run (see the notes).', '');
  const res = race.results;
  const g = (k) => res[k]?.median_ms;
  const glue = g('js: whole call') - g('js: kernel (all stages)');
  L.push(
    ...table(
      ['part of the call', 'ms', 'share of the call', 'minor page faults / call', 'what'],
      [
        ...raceRows(race, 'js', [
          ['js: whole call', undefined, "`rt.run('sparse_tensor_dense_matmul')`, as the bench times it"],
          [
            'js: kernel (all stages)',
            undefined,
            'the JS kernel on checked arguments (kernels-js `sparse_tensor_dense_matmul`)',
          ],
          ['js: output allocation', undefined, 'a zeroed m×n Float32Array alone'],
          [
            '',
            Number.isFinite(glue) ? glue : undefined,
            'the runtime around the kernel: binding, the JS index check, wrapping',
            'runtime (whole − kernel)',
          ],
        ]),
        ...peerRows(race),
      ],
    ),
    '',
  );
  const ratios = [
    'js: whole call ÷ scipy',
    'js: whole call ÷ native C++',
    'js: kernel (all stages) ÷ native C++',
  ].filter((x) => race.ratios[x] !== undefined);
  if (ratios.length)
    L.push(
      `Ratios (median of per-round ratios): ${ratios.map((x) => `${x.replace('js: ', '')} **${times(race.ratios[x])}**`).join('; ')}. Target: js ≤ 4× scipy.`,
      '',
    );
  const cpu = r.cpu?.js;
  cpuTable(L, cpu);
  if (cpu?.hot?.lines?.length) {
    L.push(
      `The hottest function, \`${cpu.hot.name}\` (${cpu.hot.where}), by source line (V8's line ticks; the built file it ran):`,
      '',
    );
    L.push(
      ...table(
        ['line', 'share of its ticks', 'source'],
        cpu.hot.lines.map((l) => [l.line, pct(l.share), `\`${l.text.replace(/\|/g, '\\|')}\``]),
      ),
      '',
    );
  }
  countsTable(L, r.counts, (name) => name.startsWith('js') || name.startsWith('native'));
  const s = g('scipy');
  const j = g('js: whole call');
  const cj = r.counts?.rows?.find((x) => x.name.startsWith('js'))?.counts;
  const cn = r.counts?.rows?.find((x) => x.name.startsWith('native'))?.counts;
  const out = [];
  out.push(
    `*Reading.* The JS call took ${fmt(j)} ms` +
      (s
        ? `, ${times(race.ratios['js: whole call ÷ scipy'])} scipy's ${fmt(s)} ms (target ≤ 4×, ${against(race.ratios['js: whole call ÷ scipy'], 4)})`
        : '') +
      '.',
  );
  if (cpu) {
    const top = cpu.functions[0];
    out.push(
      `${pct(top.share)} of the profiled time is self time in \`${top.name}\` (${top.stage}); the index check takes ${pct(cpu.stages.find((x) => x.stage === 'index check')?.share ?? 0)}, and allocation, GC and runtime glue together ${pct(cpu.stages.filter((x) => ['output allocation', 'GC', 'runtime glue'].includes(x.stage)).reduce((a, x) => a + x.share, 0))}.`,
    );
  }
  if (cj && cn)
    out.push(
      `Cachegrind counts ${fmt(cj.total.Ir / r.counts.macs)} instructions per multiply-add for the JS call against ${fmt(cn.total.Ir / r.counts.macs)} for the native loop (${times(cj.total.Ir / cn.total.Ir)}), with about as many L2 misses (${fmt(cj.total.LL / 1e3)} k vs ${fmt(cn.total.LL / 1e3)} k): ` +
        'the JS kernel is bound by the instructions it executes, one scalar multiply-add at a time (JS has no SIMD), not by memory.',
    );
  const rj = race.ratios['js: whole call ÷ scipy'];
  if (cj && rj > 4)
    out.push(
      `At the same instructions per nanosecond, reaching 4× scipy would take about ${fmt((cj.total.Ir / r.counts.macs) * (4 / rj))} instructions per multiply-add (a proportional estimate, not a measurement).`,
    );
  L.push(out.join(' '), '');
}
