import type { CompiledKernel } from './family.js';

/**
 * Whether a reduce kernel selects one of its stored values (`combine: max(acc, x)` or `min(acc, x)`, no finalize,
 * implicit zeros left out). Its gradient is then not the chain of its steps but TensorFlow's for Max and Min
 * (math_grad.py `_MinOrMaxGrad`): each stored value equal to its group's output gets `grad / count`, count being
 * how many of the group's values equal it, the others `0 * grad` (a NaN for an infinite grad, as in TensorFlow);
 * a group whose output is NaN equals none of its values, so each of them gets `0 / 0 * grad`, a NaN.
 */
export function selectsValue(k: CompiledKernel): boolean {
  const c = k.exprs.combine;
  if (k.family !== 'reduce' || !c || k.exprs.finalize || k.implicitZeros === 'include') return false;
  if (c.kind !== 'call' || (c.fn !== 'max' && c.fn !== 'min') || c.args.length !== 2) return false;
  const names = c.args.map((a) => (a.kind === 'var' ? a.name : '')).sort();
  return names[0] === 'acc' && names[1] === 'x';
}
