import { Tensor, type Runtime } from '@sparse/runtime';
import { valuesOf, withValue, type Args } from './gradient-cases.js';

/** The flat values of an op's one output (a SparseTensor's stored values, a Tensor's data) and their shape. */
export function outputOf(rt: Runtime, op: string, args: Args): { values: number[]; shape: number[] } {
  return flat(rt.run(op, args));
}

/** `outputOf` through `runAsync`, which every backend has and an asynchronous one (webgpu) needs. */
export async function outputOfAsync(
  rt: Runtime,
  op: string,
  args: Args,
): Promise<{ values: number[]; shape: number[] }> {
  return flat(await rt.runAsync(op, args));
}

function flat(outputs: Record<string, unknown>): { values: number[]; shape: number[] } {
  // A sparse or CSR output's gradient is of its stored values.
  const out = Object.values(outputs)[0];
  const values = valuesOf(out);
  return { values, shape: out instanceof Tensor ? [...out.shape] : [values.length] };
}

const outputValues = (rt: Runtime, op: string, args: Args) => outputOf(rt, op, args).values;

/**
 * The gradient of L = Σ upstream · output with respect to each value of argument `name`, by central finite
 * differences, h = 1e-5 · max(1, |x|) (float64: truncation error about h² and rounding error about 1e-16 / h, both
 * near 1e-10 here). Undefined where a step changes the output's structure (an entry appears or goes) or where the
 * loss jumps within a step (rint, round or floor across a half or a whole, sign across 0: the one-sided differences
 * disagree): no derivative there to compare with.
 */
export function finiteDifferences(
  rt: Runtime,
  op: string,
  args: Args,
  name: string,
  upstream: number[],
): number[] | undefined {
  const loss = (a: Args) => {
    const out = outputValues(rt, op, a);
    if (out.length !== upstream.length) return undefined;
    return out.reduce((s, v, i) => s + v * upstream[i], 0);
  };
  const x = valuesOf(args[name]);
  const at = loss(args);
  const grads: number[] = [];
  for (let k = 0; k < x.length; k++) {
    const h = 1e-5 * Math.max(1, Math.abs(x[k]));
    const up = loss(withValue(args, name, k, x[k] + h));
    const down = loss(withValue(args, name, k, x[k] - h));
    if (up === undefined || down === undefined || at === undefined) return undefined;
    // Smooth, the one-sided differences differ by about h·f'' (under 1e-3 here); across a jump, by about jump / h.
    const forward = (up - at) / h;
    const backward = (at - down) / h;
    if (Math.abs(forward - backward) > 1e-2 * (1 + Math.abs(forward) + Math.abs(backward))) return undefined;
    grads.push((up - down) / (2 * h));
  }
  return grads;
}
