// The soak test's requests: valid ones for each op of the service's menu, with the answer the oracle
// (reference.mjs) computes, and hostile ones, each with the statuses it may get. Seeded, so a run can be replayed.
import * as ref from './reference.mjs';

/** mulberry32: a small seeded PRNG. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const chance = (p) => next() < p;
  return { next, int, pick, chance };
}

// JSON has no Infinity: a body carries it as 1e999, which JSON.parse reads as Infinity.
const INF = '"@@inf@@"';
const NEG_INF = '"@@-inf@@"';
export function toBody(obj, finite = false) {
  // The replacer costs a call per value: large bodies, which hold no infinities, go without it.
  if (finite) return JSON.stringify(obj);
  const text = JSON.stringify(obj, (_k, v) =>
    v === Infinity ? INF.slice(1, -1) : v === -Infinity ? NEG_INF.slice(1, -1) : v,
  );
  return text.replaceAll(INF, '1e999').replaceAll(NEG_INF, '-1e999');
}

const NUMERIC = ['float32', 'float64', 'int32', 'int64'];

// float32 values are whole or halves, so every sum is exact in any order and compared exactly; float64 ones are
// arbitrary reals (compared within a tolerance), now and then infinite (not in large tensors).
function value(r, dtype, finite = false) {
  if (dtype === 'float32') return r.int(-64, 64) / 2;
  if (dtype === 'float64') return !finite && r.chance(0.02) ? r.pick([Infinity, -Infinity]) : (r.next() * 2 - 1) * 100;
  return r.int(-100, 100);
}

/** A SparseTensor of `shape` with `nnz` distinct entries, in canonical order unless `shuffle`. */
function sparse(r, shape, nnz, dtype, shuffle = false) {
  const vol = shape.reduce((a, b) => a * b, 1);
  let sorted;
  if (nnz > 1000) {
    // Large: each position kept with probability nnz / vol, in one pass, already in order.
    sorted = [];
    for (let o = 0; o < vol; o++) if (r.next() * vol < nnz) sorted.push(o);
  } else {
    const offsets = new Set();
    while (offsets.size < Math.min(nnz, vol)) offsets.add(r.int(0, vol - 1));
    sorted = [...offsets].sort((a, b) => a - b);
  }
  if (shuffle)
    for (let i = sorted.length - 1; i > 0; i--) {
      const j = r.int(0, i);
      [sorted[i], sorted[j]] = [sorted[j], sorted[i]];
    }
  const indices = sorted.map((o) => {
    const ix = new Array(shape.length);
    for (let d = shape.length - 1; d >= 0; d--) {
      ix[d] = o % shape[d];
      o = Math.floor(o / shape[d]);
    }
    return ix;
  });
  return { indices, values: indices.map(() => value(r, dtype, nnz > 1000)), dense_shape: shape, dtype };
}

const randShape = (r, rank, max = 8) => Array.from({ length: rank }, () => r.int(1, max));
const denseOf = (r, shape, dtype) =>
  shape.length === 1
    ? Array.from({ length: shape[0] }, () => value(r, dtype))
    : Array.from({ length: shape[0] }, () => denseOf(r, shape.slice(1), dtype));

/** Indices written flat and row-major, as the runtime also takes them (smaller bodies for large tensors). */
const flatIndices = (sp) => ({ ...sp, indices: sp.indices.flat() });

// Each valid case: { op, args (the body's), expect (the outputs' JSON), dtype }.
const VALID = {
  to_dense(r) {
    const dtype = r.pick(NUMERIC);
    const shape = randShape(r, r.int(1, 3));
    const sp = sparse(r, shape, r.int(0, 20), dtype);
    const def = r.chance(0.3) ? value(r, dtype === 'float64' ? 'int32' : dtype) : undefined;
    return { op: 'to_dense', args: { sp_input: sp, default_value: def }, expect: ref.toDense(sp, def), dtype };
  },
  reduce_sum(r, large) {
    const dtype = r.pick(NUMERIC);
    const rank = large ? 2 : r.int(1, 3);
    const shape = large ? [r.int(300, 500), r.int(300, 500)] : randShape(r, rank);
    const sp = sparse(r, shape, large ? r.int(66_000, 80_000) : r.int(0, 25), dtype, true);
    const axis = r.pick([null, r.int(-rank, rank - 1), [...new Set([r.int(0, rank - 1), r.int(-rank, -1) + rank])]]);
    const keepdims = r.chance(0.5);
    const expect = ref.reduceSum(sp, axis, keepdims);
    return { op: 'reduce_sum', args: { sp_input: large ? flatIndices(sp) : sp, axis, keepdims }, expect, dtype };
  },
  sparse_dense_matmul(r, large) {
    const dtype = r.pick(['float32', 'float64', 'int32']);
    const [m, k, n] = large
      ? [r.int(150, 250), r.int(60, 100), r.int(40, 64)]
      : [r.int(1, 8), r.int(1, 8), r.int(1, 8)];
    const adjointA = r.chance(0.3);
    const adjointB = r.chance(0.3);
    const a = sparse(r, adjointA ? [k, m] : [m, k], large ? r.int(1500, 3000) : r.int(0, 20), dtype, r.chance(0.3));
    const b = denseOf(r, adjointB ? [n, k] : [k, n], dtype === 'float64' ? 'int32' : dtype);
    return {
      op: 'sparse_dense_matmul',
      args: { sp_a: a, b: { dense: b, dtype }, adjoint_a: adjointA, adjoint_b: adjointB },
      expect: ref.sparseDenseMatmul(a, b, adjointA, adjointB),
      dtype,
    };
  },
  add(r, large) {
    const dtype = r.pick(NUMERIC);
    if (!large && r.chance(0.4)) {
      const shape = randShape(r, r.int(1, 3));
      const a = sparse(r, shape, r.int(0, 20), dtype);
      const b = denseOf(r, shape, dtype);
      const flat = [b].flat(shape.length);
      const [x, y] = r.chance(0.5) ? [a, { dense: b, dtype }] : [{ dense: b, dtype }, a];
      return { op: 'add', args: { a: x, b: y }, expect: ref.addDense(a, flat), dtype };
    }
    const shape = large ? [r.int(400, 600), r.int(200, 300)] : randShape(r, r.int(1, 3));
    const nnz = large ? r.int(40_000, 50_000) : r.int(0, 20);
    const a = sparse(r, shape, nnz, dtype);
    const b = sparse(r, shape, large ? nnz : r.int(0, 20), dtype);
    const args = large ? { a: flatIndices(a), b: flatIndices(b) } : { a, b };
    return { op: 'add', args, expect: ref.addSparse(a, b), dtype };
  },
  reorder(r) {
    const dtype = r.pick(NUMERIC);
    const sp = sparse(r, randShape(r, r.int(1, 3)), r.int(0, 25), dtype, true);
    // Repeated indices are kept, in the order they had.
    if (sp.indices.length > 1 && r.chance(0.3)) {
      sp.indices.push(sp.indices[0]);
      sp.values.push(value(r, dtype));
    }
    return { op: 'reorder', args: { sp_input: sp }, expect: ref.reorder(sp), dtype };
  },
  segment_sum(r) {
    const dtype = r.pick(NUMERIC);
    const [rows, cols] = [r.int(1, 10), r.int(1, 6)];
    const data = denseOf(r, [rows, cols], dtype);
    const n = r.int(1, 15);
    const indices = Array.from({ length: n }, () => r.int(0, rows - 1));
    let s = r.int(0, 2);
    const segmentIds = indices.map(() => (s += r.chance(0.4) ? r.int(1, 2) : 0));
    const numSegments = r.chance(0.4) ? segmentIds[n - 1] + 1 + r.int(0, 3) : undefined;
    return {
      op: 'segment_sum',
      args: { data: { dense: data, dtype }, indices, segment_ids: segmentIds, num_segments: numSegments },
      expect: ref.segmentSum(data, dtype, indices, segmentIds, numSegments),
      dtype,
    };
  },
  bincount(r) {
    const dtype = r.pick(['int32', 'int64']);
    const rank = r.int(1, 2);
    const sp = sparse(r, randShape(r, rank), r.int(0, 25), dtype);
    sp.values = sp.values.map(() => r.int(0, 20));
    const axis = rank === 2 && r.chance(0.5) ? -1 : 0;
    const minlength = r.chance(0.3) ? r.int(0, 30) : undefined;
    const maxlength = r.chance(0.3) ? r.int(1, 25) : undefined;
    const binary = r.chance(0.3);
    return {
      op: 'bincount',
      args: { values: sp, axis, minlength, maxlength, binary_output: binary },
      expect: ref.bincount(sp, axis, minlength, maxlength, binary),
      dtype,
    };
  },
};
const LARGE = ['reduce_sum', 'sparse_dense_matmul', 'add'];

const json = (body) => ({ method: 'POST', path: '/run', type: 'application/json', body });

/** A valid request, large (`large`: enough entries to run on both threads) or small. */
function validRequest(r, large) {
  const name = large ? r.pick(LARGE) : r.pick(Object.keys(VALID));
  const c = VALID[name](r, large);
  return {
    kind: 'valid',
    name: `${c.op}${large ? ' (large)' : ''}`,
    send: { via: 'http', ...json(toBody({ op: c.op, args: c.args }, large)), slow: !large && r.chance(0.02) },
    expect: c.expect,
    tolerance: c.dtype === 'float64' ? 1e-9 : 0,
  };
}

let tooLargeText;
/** A body past the service's 4 MiB limit (a million entries), made once. */
function tooLarge() {
  tooLargeText ??=
    `{"op":"to_dense","args":{"sp_input":{"indices":[${'0,'.repeat(999_999)}0],` +
    `"values":[${'17,'.repeat(999_999)}17],"dense_shape":[1]}}}`;
  return tooLargeText;
}
const nested = (depth, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);
const body = (op, args) => toBody({ op, args });
const spOf = (over) => ({
  indices: [
    [0, 1],
    [1, 2],
  ],
  values: [1, 2],
  dense_shape: [2, 3],
  dtype: 'float32',
  ...over,
});

// Hostile requests: name → (r) → { send, statuses }. Lying and slow transports go over a raw socket.
const S400 = [400];
const HOSTILE = {
  'malformed JSON': (r) => ({
    send: json(
      r.pick(['', '{', '{"op":"to_dense",', '{"op": NaN}', '{"op":"to_dense"}}', "{'op':1}", '\u0000\xff\xfe', '[1,]']),
    ),
    statuses: S400,
  }),
  'not an object': (r) => ({
    send: json(r.pick(['[1,2]', '"to_dense"', 'null', '42', '{"op":"to_dense","args":[1]}'])),
    statuses: S400,
  }),
  'unknown op': (r) => ({
    send: json(
      body(
        r.pick(['__proto__', 'constructor', 'toString', 'sparse_tensor_to_dense', 'matmul', '', 'x'.repeat(1000)]),
        {},
      ),
    ),
    statuses: S400,
  }),
  'unknown argument': (r) => ({
    send: json(
      `{"op":"to_dense","args":{"sp_input":${JSON.stringify(spOf())},"${r.pick(['__proto__', 'constructor', 'axis', 'sp'])}":{"x":1}}}`,
    ),
    statuses: S400,
  }),
  'index out of range': (r) => {
    const bad = r.pick([
      [0, 3],
      [2, 0],
      [-1, 0],
      [0, 2 ** 53],
      [0, 2 ** 63],
      [0, 1.5],
    ]);
    const sp = spOf({ indices: [[0, 0], bad] });
    const c = r.pick([
      ['to_dense', { sp_input: sp }],
      ['reduce_sum', { sp_input: sp, axis: 1 }],
      ['reorder', { sp_input: sp }],
      ['sparse_dense_matmul', { sp_a: sp, b: { dense: [[1], [2], [3]], dtype: 'float32' } }],
      ['add', { a: sp, b: spOf() }],
      [
        'segment_sum',
        { data: { dense: [[1, 2]], dtype: 'float32' }, indices: [0, r.pick([1, -1, 2 ** 40])], segment_ids: [0, 0] },
      ],
      [
        'segment_sum',
        {
          data: { dense: [[1, 2]], dtype: 'float32' },
          indices: [0, 0],
          segment_ids: r.pick([
            [1, 0],
            [-1, 0],
            [0, 5],
          ]),
          num_segments: 2,
        },
      ],
      ['bincount', { values: spOf({ values: [1, -3], dtype: 'int32' }) }],
    ]);
    return { send: json(body(...c)), statuses: S400 };
  },
  'out of order': (r) => {
    const unordered = spOf({
      indices: [
        [1, 2],
        [0, 1],
      ],
    });
    const c = r.chance(0.5) ? ['to_dense', { sp_input: unordered }] : ['add', { a: unordered, b: spOf() }];
    return { send: json(body(...c)), statuses: S400 };
  },
  'lengths disagree': (r) => ({
    send: json(
      body('to_dense', {
        sp_input: spOf(
          r.pick([{ values: [1, 2, 3] }, { indices: [[0, 0]] }, { indices: [0, 1, 1] }, { dense_shape: [] }]),
        ),
      }),
    ),
    statuses: S400,
  }),
  'wrong dtype': (r) => {
    const c = r.pick([
      ['to_dense', { sp_input: spOf({ dtype: r.pick(['float16', 'complex64', 'Float32', '', 7]) }) }],
      ['to_dense', { sp_input: spOf({ dtype: 'int32', values: [1.5, 2] }) }],
      ['to_dense', { sp_input: spOf({ dtype: 'int32', values: [2 ** 31, 2] }) }],
      ['to_dense', { sp_input: spOf({ values: ['a', 'b'] }) }],
      ['reduce_sum', { sp_input: spOf({ dtype: 'bool', values: [true, false] }) }],
      ['add', { a: spOf(), b: spOf({ dtype: 'int32' }) }],
      ['bincount', { values: spOf() }],
      ['segment_sum', { data: { dense: [[1]], dtype: 'float32' }, indices: [0.5], segment_ids: [0] }],
      ['sparse_dense_matmul', { sp_a: spOf(), b: { dense: [[1], [2], [3]], dtype: 'int64' } }],
    ]);
    return { send: json(body(...c)), statuses: S400 };
  },
  'not finite': (r) => {
    const c = r.pick([
      ['to_dense', { sp_input: spOf({ dtype: 'int32', values: [Infinity, 1] }) }],
      [
        'to_dense',
        {
          sp_input: spOf({
            indices: [
              [0, 0],
              [0, Infinity],
            ],
          }),
        },
      ],
      ['to_dense', { sp_input: spOf({ dense_shape: [2, Infinity] }) }],
      ['reduce_sum', { sp_input: spOf(), axis: -Infinity }],
      [
        'segment_sum',
        { data: { dense: [[1]], dtype: 'float32' }, indices: [0], segment_ids: [0], num_segments: Infinity },
      ],
      ['bincount', { values: spOf({ dtype: 'int64', values: [1, 2] }), minlength: Infinity }],
    ]);
    return { send: json(body(...c)), statuses: S400 };
  },
  'over the byte budget': (r) => {
    const c = r.pick([
      ['to_dense', { sp_input: spOf({ dense_shape: [4096, r.int(1024, 4096)] }) }],
      [
        'sparse_dense_matmul',
        {
          sp_a: spOf({ dense_shape: [1_000_000, 3] }),
          b: {
            dense: [
              [1, 1, 1, 1],
              [2, 2, 2, 2],
              [3, 3, 3, 3],
            ],
            dtype: 'float32',
          },
        },
      ],
      [
        'segment_sum',
        { data: { dense: [[1, 2, 3, 4]], dtype: 'float64' }, indices: [0], segment_ids: [0], num_segments: 10_000_000 },
      ],
      [
        'reduce_sum',
        { sp_input: spOf({ indices: [[0, 1, 2]], values: [1], dense_shape: [2, 3, 3_000_000] }), axis: 1 },
      ],
    ]);
    return { send: json(body(...c)), statuses: [413] };
  },
  'shape past what a dense tensor holds': (r) => ({
    send: json(
      body('to_dense', {
        sp_input: spOf({
          dense_shape: r.pick([
            [100_000, 100_000],
            [2 ** 40, 2 ** 40],
            [2 ** 62, 4],
            ['9223372036854775807', 2],
          ]),
        }),
      }),
    ),
    statuses: [400, 413],
  }),
  'deeply nested JSON': (r) => {
    const deep = nested(r.int(1000, 100_000));
    const sp = JSON.stringify(spOf());
    const text = r.pick([
      `{"op":"to_dense","args":{"sp_input":{"indices":${deep},"values":[1],"dense_shape":[2]}}}`,
      `{"op":"to_dense","args":{"sp_input":{"indices":[[0]],"values":${deep},"dense_shape":[2]}}}`,
      `{"op":"to_dense","args":{"sp_input":{"indices":[[0]],"values":[1],"dense_shape":${deep}}}}`,
      `{"op":"reduce_sum","args":{"sp_input":${sp},"axis":${deep}}}`,
      `{"op":"segment_sum","args":{"data":{"dense":${deep},"dtype":"float32"},"indices":[0],"segment_ids":[0]}}`,
      `{"op":"to_dense","args":{"sp_input":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}}`,
      `${'{"op":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
    ]);
    return { send: json(text), statuses: S400 };
  },
  'body too large': (r) => ({ send: { ...json(tooLarge()), chunked: r.chance(0.5) }, statuses: [413] }),
  'wrong method, path or type': (r) =>
    r.pick([
      { send: { method: 'GET', path: '/run', type: 'application/json', body: '' }, statuses: [405] },
      { send: { method: 'POST', path: '/../etc/passwd', type: 'application/json', body: '{}' }, statuses: [404] },
      {
        send: { method: 'POST', path: '/run', type: 'text/plain', body: body('to_dense', { sp_input: spOf() }) },
        statuses: [415],
      },
    ]),
};

// Over a raw socket: bodies that lie about their length, and uploads the client abandons.
const head = (length) =>
  `POST /run HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
const RAW = {
  // The rest never comes: the service's request timeout answers 408.
  'Content-Length larger than sent': () => {
    const text = body('to_dense', { sp_input: spOf() });
    return { send: { via: 'raw', bytes: head(text.length + 100) + text, mode: 'wait' }, statuses: [408] };
  },
  // The service reads what was declared (cut JSON: 400); the rest reads as a bad next request.
  'Content-Length smaller than sent': (r) => {
    const text = body('to_dense', { sp_input: spOf() });
    return { send: { via: 'raw', bytes: head(r.int(1, text.length - 2)) + text, mode: 'first' }, statuses: S400 };
  },
  'Content-Length past the limit': () => ({
    send: { via: 'raw', bytes: head(10 ** 12) + '{"op":', mode: 'first' },
    statuses: [413],
  }),
  // The client gives up mid-upload: no answer is owed; the service must live on.
  'aborted upload': (r) => {
    const text = body('reduce_sum', { sp_input: spOf() });
    return {
      send: { via: 'raw', bytes: head(text.length) + text.slice(0, r.int(0, text.length - 1)), mode: 'abort' },
      statuses: null,
    };
  },
};
const SLOW_RAW = new Set(['Content-Length larger than sent']);

/**
 * The request stream of a seed: 70% valid (3% of those large, drawn from a few made ahead, since making one
 * takes the generator ~0.2 s), else hostile. A request that holds its connection for seconds (waiting for the
 * service's timeout) runs one at a time (`busySlow` says whether one is in flight), so it never starves the rest.
 */
export function requestStream(seed) {
  const r = prng(seed);
  const large = Array.from({ length: 8 }, () => validRequest(r, true));
  // A large request used is replaced one time in four, so that result sizes keep varying as a real load's do.
  const nextLarge = () => {
    const i = r.int(0, large.length - 1);
    const req = large[i];
    if (r.chance(0.25)) large[i] = validRequest(r, true);
    return req;
  };
  return (busySlow) => {
    if (r.chance(0.7)) return r.chance(0.03) ? nextLarge() : validRequest(r, false);
    if (r.chance(0.1)) {
      const names = Object.keys(RAW).filter((n) => !(busySlow && SLOW_RAW.has(n)));
      const name = r.pick(names);
      return { kind: 'hostile', name, slow: SLOW_RAW.has(name), ...RAW[name](r) };
    }
    const name = r.pick(Object.keys(HOSTILE));
    const h = HOSTILE[name](r);
    return { kind: 'hostile', name, send: { via: 'http', ...h.send }, statuses: h.statuses };
  };
}
