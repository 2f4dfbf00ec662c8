import { allocIndices, allocValues, type SparseCrossKernel } from '@sparse/kernel-abi';
import { crossPlan, forEachCross, type CrossInput } from '../cross-plan.js';

/** A column's features as text: strings as they are, integers in decimal (TensorFlow's std::to_string). */
function featureTexts(x: CrossInput): ArrayLike<string> {
  const v = x.kind === 'sparse' ? x.values : x.data;
  if (x.dtype === 'string') return v as string[];
  return Array.from(v as ArrayLike<number | bigint>, String);
}

/**
 * Each cross of the inputs' features, row by row, as their texts joined by `separator` (TensorFlow's SparseCrossV2).
 * Linear in the crosses and their length: a cross shares the text of its columns up to the last one that changed
 * with the cross before it. The runtime has checked the ranks and batch sizes, and that the strings fit.
 */
export const sparseCross: SparseCrossKernel = ({ inputs, separator }) => {
  const plan = crossPlan(inputs);
  const sep = separator === null ? '_X_' : String(separator);
  const texts = plan.columns.map(featureTexts);
  const C = texts.length;
  const indices = allocIndices(plan.total * 2, false);
  const values = allocValues('string', plan.total) as string[];
  // prefix[c]: the features of columns 0..c of the current cross, joined.
  const prefix = new Array<string>(C).fill('');
  forEachCross(plan, (k, row, j, at, changed) => {
    for (let c = changed; c < C; c++) {
      const order = plan.order[c];
      const text = texts[c][order ? order[at[c]] : at[c]];
      prefix[c] = c === 0 ? text : prefix[c - 1] + sep + text;
    }
    indices[2 * k] = row;
    indices[2 * k + 1] = j;
    values[k] = prefix[C - 1];
  });
  return { output: { kind: 'sparse', indices, values, shape: [plan.batch, plan.widest], dtype: 'string' } };
};
