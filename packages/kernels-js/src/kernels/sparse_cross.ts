import {
  allocIndices,
  allocValues,
  type CrossInput,
  crossFeatures,
  crossPlan,
  forEachCross,
  type SparseCrossKernel,
} from '@sparse/kernel-abi';

/** A column's features as text: strings as they are, integers in decimal (TensorFlow's std::to_string). */
function featureTexts(column: CrossInput): ArrayLike<string> {
  const x = crossFeatures(column);
  const v = x.kind === 'sparse' ? x.values : x.data;
  if (x.dtype === 'string') return v as string[];
  return Array.from(v as ArrayLike<number | bigint>, String);
}

/**
 * Each cross of the inputs' features, row by row, as their texts joined by `separator` (TensorFlow's SparseCrossV2).
 * Linear in the crosses and their length: a cross shares the text of its columns before the first one that changed
 * with the cross before it. The runtime has checked the ranks and batch sizes, and that the strings fit.
 */
export const sparseCross: SparseCrossKernel = ({ inputs, separator }) => {
  const plan = crossPlan(inputs);
  const sep = separator === null ? '_X_' : String(separator);
  const texts = plan.columns.map(featureTexts);
  const C = texts.length;
  const indices = allocIndices(plan.total * 2, false);
  const values = allocValues('string', plan.total) as string[];
  // head[c]: the texts of columns 0..c of the current cross, each followed by the separator; so that a cross whose
  // last column alone changed (most of them) is one concatenation.
  const head = new Array<string>(C).fill('');
  const textAt = (c: number, at: Float64Array) => {
    const order = plan.order[c];
    return texts[c][order ? order[at[c]] : at[c]];
  };
  forEachCross(plan, (k, row, j, at, changed) => {
    for (let c = changed; c < C - 1; c++) head[c] = (c === 0 ? '' : head[c - 1]) + textAt(c, at) + sep;
    indices[2 * k] = row;
    indices[2 * k + 1] = j;
    values[k] = (C === 1 ? '' : head[C - 2]) + textAt(C - 1, at);
  });
  return { output: { kind: 'sparse', indices, values, shape: [plan.batch, plan.widest], dtype: 'string' } };
};
