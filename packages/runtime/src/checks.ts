import { indexText, type DenseData, type SparseData } from '@sparse/kernel-abi';
import { InvalidArgumentError } from './errors.js';
import type { CheckMeta, OpMeta } from './op-meta.js';
import { sameShape, shapeText } from './shape.js';
import { validateOrdered } from './validate-sparse.js';
import { establishOrdered, knownOrdered } from './index-facts.js';
import { CUSTOM_CHECKS } from './generated/custom-checks.js';
import { OPS } from './generated/ops-meta.js';
import { expectedShape, isDenseResult } from './outputs.js';
import type { BoundArgs } from './bind-args.js';

type Data = SparseData | DenseData;
type Args = Record<string, unknown>;

const shapeOf = (x: unknown): number[] => (x as Data).shape;
const isSparse = (x: unknown): x is SparseData => (x as Data)?.kind === 'sparse';
const isDense = (x: unknown): x is DenseData => (x as Data)?.kind === 'dense';

/** Runs the spec's checks on bound arguments; each rule is one function, and each error names the op and argument. */
export function runChecks(op: OpMeta, args: Args): void {
  for (const c of op.checks) CHECKS[c.rule](op.name, c as never, args);
}

const CHECKS: { [R in CheckMeta['rule']]: (op: string, c: Extract<CheckMeta, { rule: R }>, args: Args) => void } = {
  indices_ordered(op, c, args) {
    if (c.when !== undefined && args[c.when] !== true) return;
    const v = args[c.arg];
    const list = Array.isArray(v) ? (v as SparseData[]) : [v];
    list.forEach((st, k) => {
      if (!isSparse(st) || knownOrdered(st)) return;
      validateOrdered(
        st.indices,
        st.values.length,
        st.shape.length,
        `${op}: ${c.arg}${Array.isArray(v) ? `[${k}]` : ''}.indices`,
      );
      establishOrdered(st);
    });
  },

  same_shape(op, c, args) {
    const [a, b] = c.args;
    if (!sameShape(shapeOf(args[a]), shapeOf(args[b]))) {
      throw new InvalidArgumentError(
        `${op}: ${a} and ${b} must have the same dense shape; got ${shapeText(shapeOf(args[a]))} and ${shapeText(shapeOf(args[b]))}`,
      );
    }
  },

  broadcast_to_sparse(op, c, args) {
    const d = shapeOf(args[c.dense]);
    const s = shapeOf(args[c.sparse]);
    const fits = d.length <= s.length && d.every((dim, i) => dim === 1 || dim === s[s.length - d.length + i]);
    if (!fits) {
      throw new InvalidArgumentError(
        `${op}: ${c.dense} of shape ${shapeText(d)} does not broadcast to the dense shape ${shapeText(s)} of ${c.sparse} (the dense side is broadcast to the sparse side only)`,
      );
    }
  },

  not_both_dense(op, c, args) {
    if (isDense(args[c.args[0]]) && isDense(args[c.args[1]])) {
      throw new TypeError(
        `${op}: at least one of ${c.args[0]} and ${c.args[1]} must be a SparseTensor; both are dense (add dense tensors directly)`,
      );
    }
  },

  rank(op, c, args) {
    const r = shapeOf(args[c.arg]).length;
    if ((c.min !== undefined && r < c.min) || (c.max !== undefined && r > c.max)) {
      const want =
        c.min !== undefined && c.min === c.max
          ? `${c.min}`
          : c.min !== undefined && c.max !== undefined
            ? `between ${c.min} and ${c.max}`
            : c.min !== undefined
              ? `at least ${c.min}`
              : `at most ${c.max}`;
      throw new InvalidArgumentError(`${op}: ${c.arg} must have rank ${want}, got rank ${r}`);
    }
  },

  gradient_shape(op, c, args) {
    const got = shapeOf(args[c.grad]);
    let want: number[] | undefined;
    let what: string;
    if (c.values_of !== undefined) {
      // A sparse or CSR argument's stored values; a dense one's whole tensor.
      const of = args[c.values_of] as Data;
      want = isDense(of) ? of.shape : [of.values.length];
      what = isDense(of) ? `the shape of ${c.values_of}` : `one value per stored entry of ${c.values_of}`;
    } else {
      // The forward op's output on the same arguments: a dense one has the shape its rule gives; a sparse one's
      // stored entries are counted by the kernel, so here only its rank (1) is known.
      const fwd = OPS[c.output_of!];
      const o = fwd.outputs[0];
      const bound = { values: args } as BoundArgs;
      const dense = o.type === 'dense' || (o.type === 'sparse_or_dense' && isDenseResult(fwd, bound));
      want = dense ? expectedShape(o, bound) : undefined;
      what = `the shape of the output of ${c.output_of}`;
      if (!dense && got.length !== 1)
        throw new InvalidArgumentError(
          `${op}: ${c.grad} has shape ${shapeText(got)}; it must have one value per stored entry of the output of ${c.output_of} (rank 1)`,
        );
    }
    if (want && !sameShape(got, want))
      throw new InvalidArgumentError(
        `${op}: ${c.grad} has shape ${shapeText(got)}; it must have ${what}, ${shapeText(want)}`,
      );
  },

  custom(op, c, args) {
    CUSTOM_CHECKS[c.name](op, args);
  },

  axes_in_range(op, c, args) {
    const axes = args[c.axes] as number[] | null;
    const rank = shapeOf(args[c.of]).length;
    axes?.forEach((a, i) => {
      if (a < -rank || a >= rank) {
        throw new InvalidArgumentError(
          `${op}: ${c.axes}[${i}] = ${a} is out of range for ${c.of} of rank ${rank}: need ${-rank} <= axis < ${rank}`,
        );
      }
    });
  },

  index_matrix(op, c, args) {
    const ind = args[c.indices] as DenseData | number | bigint;
    const vals = args[c.values];
    const out = args[c.shape] as number[];
    // A scalar index arrives in scalar form; treat it as one index of one dim.
    const data: ArrayLike<number | bigint> = isDense(ind) ? (ind.data as ArrayLike<number | bigint>) : [ind as number];
    const ishape = isDense(ind) ? ind.shape : [];
    if (ishape.length > 2)
      throw new InvalidArgumentError(
        `${op}: ${c.indices} must be a scalar, vector or matrix, got shape ${shapeText(ishape)}`,
      );
    const n = ishape.length === 0 ? 1 : ishape[0];
    const rank = ishape.length === 2 ? ishape[1] : 1;
    if (out.length !== rank) {
      throw new InvalidArgumentError(
        `${op}: ${c.shape} has ${out.length} dims but each index of ${c.indices} has ${rank}`,
      );
    }
    if (isDense(vals) && !(vals.shape.length === 0 || (vals.shape.length === 1 && vals.shape[0] === n))) {
      throw new InvalidArgumentError(
        `${op}: ${c.values} has shape ${shapeText(vals.shape)}; it must be a scalar or have shape [${n}]`,
      );
    }
    for (let k = 0; k < n * rank; k++) {
      const x = Number(data[k]);
      const dim = out[k % rank];
      if (!(x >= 0 && x < dim)) {
        const i = Math.floor(k / rank);
        throw new InvalidArgumentError(
          `${op}: ${c.indices}[${i}] = ${indexText(data, i, rank)} is out of bounds: need 0 <= index < ${shapeText(out)}`,
        );
      }
    }
    if (c.ordered_when === undefined || args[c.ordered_when] === true)
      validateOrdered(data, n, rank, `${op}: ${c.indices}`);
  },
};
