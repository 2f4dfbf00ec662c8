import fc from 'fast-check';
import type { LoadedSpec } from '@sparse/codegen';
import { isDenseForm, isSparseForm } from '@sparse/case-format';
import type { Case } from '../../src/index.js';
import { flattenNested, nest } from './grid.js';

// Cases of float32 values at the edges of what float32 and a GPU compute alike: ±0, nan, ±inf, subnormals, the
// largest float32, and normal values whose products or sums reach the subnormal range (near 2^-63, whose squares are
// 2^-126, the smallest normal; near 2^-103, whose sums cancel to multiples of 2^-126; near 2^-126 itself), with
// ordinary ones to combine them with. Made from each op's examples: every float tensor becomes float32 and takes new
// values, a sparse one may drop entries.

const f = Math.fround;
const FLOAT32_MAX = 3.4028234663852886e38;

/** Finite, zero or normal: what the GPU takes as it is, so that only its own arithmetic can reach a subnormal. */
const NORMAL_EDGES = [
  0,
  FLOAT32_MAX,
  -FLOAT32_MAX,
  2 ** 127,
  2 ** 126,
  2 ** 63,
  2 ** -126,
  -(2 ** -126),
  2 ** -126 * (1 + 2 ** -23),
  f(1.5e-38),
  f(-1.4e-38),
  2 ** -103,
  -(2 ** -102),
  2 ** -63,
  -(2 ** -63),
  2 ** -64,
  2 ** -62,
  2 ** -63 * (1 + 2 ** -23),
  f(1e-19),
  f(-1e-20),
  1,
  -1,
  1.5,
  -2.5,
  f(0.1),
  3,
  100,
  -87.5,
  -100,
  88,
];

/** What WebGL does not promise to keep: nan, the infinities, -0 and subnormals. */
const SPECIAL = [NaN, Infinity, -Infinity, -0, 2 ** -149, -(2 ** -149), f(1e-39), f(-1.4e-45)];

/** One value of a case: mostly its palette's edges, sometimes any float32 (fast-check leans to edges there too). */
const valueArb = (palette: readonly number[]) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...palette) }, { weight: 1, arbitrary: fc.float() });

/** Per case: the normal edges only (three times in four), or every edge, specials included. */
const paletteArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(NORMAL_EDGES) },
  { weight: 1, arbitrary: fc.constant([...NORMAL_EDGES, ...SPECIAL]) },
);

/** A value as a case spells it: nan and the infinities as strings. */
const spelled = (v: number): number | string =>
  Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v;

const isFloat = (form: Record<string, unknown>) => form.dtype === 'float32' || form.dtype === 'float64';

/** An argument with every float tensor in it made float32, its values drawn from the palette. */
function withEdges(value: unknown, palette: readonly number[]): fc.Arbitrary<unknown> {
  if (isSparseForm(value) && isFloat(value)) {
    const s = value.sparse as { indices: unknown[]; values: unknown[]; dense_shape: unknown };
    const entries = s.indices.map((_, i) => i);
    return fc.oneof(fc.constant(entries), fc.subarray(entries)).chain((kept) =>
      fc.array(valueArb(palette), { minLength: kept.length, maxLength: kept.length }).map((values) => ({
        sparse: { indices: kept.map((i) => s.indices[i]), values: values.map(spelled), dense_shape: s.dense_shape },
        dtype: 'float32',
      })),
    );
  }
  if (isDenseForm(value) && isFloat(value)) {
    const { flat, shape } = flattenNested(value.dense);
    const given = Array.isArray(value.shape) ? (value.shape as number[]) : shape;
    return fc.array(valueArb(palette), { minLength: flat.length, maxLength: flat.length }).map((data) => ({
      ...value,
      dense: nest(data.map(spelled), given),
      dtype: 'float32',
    }));
  }
  if (Array.isArray(value) && value.some((x) => isSparseForm(x) || isDenseForm(x)))
    return fc.tuple(...value.map((x) => withEdges(x, palette)));
  return fc.constant(value);
}

const holdsFloat = (value: unknown): boolean =>
  ((isSparseForm(value) || isDenseForm(value)) && isFloat(value)) || (Array.isArray(value) && value.some(holdsFloat));

/** Float32 edge cases of the op, from its examples that hold a float tensor; undefined if none does. */
export function float32EdgeCaseArb(spec: LoadedSpec): fc.Arbitrary<Case> | undefined {
  const examples = spec.examples.filter((e) => e.expect !== undefined && Object.values(e.args).some(holdsFloat));
  if (examples.length === 0) return undefined;
  return fc.tuple(fc.constantFrom(...examples), paletteArb).chain(([ex, palette]) => {
    const names = Object.keys(ex.args);
    return fc.tuple(...names.map((k) => withEdges(ex.args[k], palette))).map((values): Case => ({
      op: spec.name,
      name: `float32 edges from ${ex.name}`,
      args: Object.fromEntries(names.map((k, i) => [k, values[i]])),
    }));
  });
}
