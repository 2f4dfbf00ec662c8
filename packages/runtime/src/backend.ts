import type { KernelTable, SparseData } from '@sparse/kernels-js';

/** A backend: a name and its kernels keyed by op id. Kernels speak plain data only. */
export interface Backend {
  name: string;
  kernels: Partial<KernelTable>;
  /**
   * A faster form of the runtime's index check, if the backend has one: true when every index is a whole number
   * in [0, dim). False only means "not shown": the runtime then runs its own check, which names the bad entry.
   * It sees the very argument object the kernel will get next, fresh for each call.
   */
  indicesValid?(st: SparseData): boolean;
}

type BackendLoader = () => Backend | Promise<Backend>;

const loaders = new Map<string, BackendLoader>();

/** Registers a backend under a name; its loader runs on first use (so wasm and gpu load on demand). */
export function registerBackend(name: string, loader: BackendLoader): void {
  loaders.set(name, loader);
}

/** The registered backend names. */
export function listBackends(): string[] {
  return [...loaders.keys()];
}

/** Loads a registered backend, or says which ones there are. */
export async function loadBackend(name: string): Promise<Backend> {
  const loader = loaders.get(name);
  if (!loader) {
    throw new Error(`unknown backend '${name}': the registered backends are ${listBackends().join(', ')}`);
  }
  return loader();
}
