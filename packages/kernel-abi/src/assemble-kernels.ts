/** A kernel as a backend's assembly holds it: the op id is known only at run time. */
type AnyKernel = (args: Record<string, unknown>) => unknown;

/** What a backend is made of, as its assembly takes it. */
export interface KernelParts<C, K> {
  /** The JS reference kernels: every op, and what a backend kernel delegates to. */
  js: Readonly<Record<string, AnyKernel>>;
  /** The backend's context, which its hand-written kernels are made from. */
  context: C;
  /** Its generated family kernel of an op, made from the op's JS kernel, or undefined where it generates none. */
  family(op: string, js: AnyKernel): K | undefined;
  /** Its generated table's hand-written kernels: each op's factory of (context, JS kernel). */
  handWritten: Readonly<Record<string, unknown>>;
  /** The ops it runs on the JS kernels (its generated table's JS_DISPATCHED), and how: a kernel saying so. */
  delegated: readonly string[];
  delegate(op: string, js: AnyKernel): K;
  /** Wraps every kernel (the backend's limits), given the op's JS kernel and its id. */
  wrap?(kernel: K, js: AnyKernel, op: string): K;
}

/**
 * A backend's kernel table, by op id: for each op of the JS reference, its generated family kernel, else its
 * hand-written one, else the JS kernel where the backend declares it (delegated, saying so). The one assembly every
 * backend shares; the generated kernel table has typed each hand-written factory by its op.
 */
export function assembleKernels<C, K>(parts: KernelParts<C, K>): Record<string, K> {
  const kernels: Record<string, K> = {};
  for (const [op, js] of Object.entries(parts.js)) {
    let kernel = parts.family(op, js);
    if (!kernel && Object.hasOwn(parts.handWritten, op))
      kernel = (parts.handWritten[op] as (context: C, js: AnyKernel) => K)(parts.context, js);
    if (!kernel && parts.delegated.includes(op)) kernel = parts.delegate(op, js);
    if (kernel) kernels[op] = parts.wrap ? parts.wrap(kernel, js, op) : kernel;
  }
  return kernels;
}
