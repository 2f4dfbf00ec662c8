import type { CompiledKernel } from './expr/family.js';
import type { OutputOrder } from './spec-format.js';
import type { OpSpec } from './spec-types.js';

type Report = (path: readonly (string | number)[], message: string) => void;

/** The order a family's sparse output has: its input's (map, cwise keep the indices) or canonical (merge, reduce). */
function familyOrder(k: CompiledKernel): OutputOrder {
  return k.family === 'map' || k.family === 'cwise' ? { like: k.roles.sparse! } : 'canonical';
}

/**
 * The order each sparse output is in by construction, which lets the runtime skip checking it again: declared in
 * the spec (`order`), or derived from the family. An output without one is checked when an op needs its order.
 */
export function outputOrders(
  spec: OpSpec,
  compiled: CompiledKernel | undefined,
  report: Report,
): Record<string, OutputOrder> {
  const out: Record<string, OutputOrder> = {};
  spec.outputs.forEach((o, i) => {
    if (o.type === 'dense' || o.type === 'csr') {
      // A CsrMatrix is canonical by what it is: sorted columns in each row, checked where one is made from data.
      if (o.order) report(['outputs', i, 'order'], `a ${o.type} output has no order to declare`);
      return;
    }
    const order = o.order ?? (compiled ? familyOrder(compiled) : undefined);
    if (!order) return;
    if (typeof order === 'object') {
      const a = spec.args.find((x) => x.name === order.like);
      if (a?.type !== 'sparse') report(['outputs', i, 'order', 'like'], `'${order.like}' is not a sparse argument`);
    }
    out[o.name] = order;
  });
  return out;
}
