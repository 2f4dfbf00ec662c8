import type { LoadedSpec } from './spec-types.js';

/**
 * A backend besides the JS reference, as its package declares it in `codegen/target.ts` (exported as `target`):
 * its name, how the runtime makes it, which ops its family emitter generates, what runs an op it has no kernel
 * for, and the files it generates. From it codegen writes the backend's kernel table, its loader in the runtime
 * and its column of ops.md; conformance runs every backend the runtime lists.
 */
export interface TargetDeclaration {
  /** The backend's name: what `createRuntime({ backend })` and a spec's `dispatch` call it. */
  name: string;
  /** Its package, and the function that makes the backend (given the runtime options named by `passes`). */
  package: string;
  factory: string;
  /** The runtime options it is made with: `source` as its first argument, `options` in an object as its second. */
  passes?: { source: 'wasmPath'; options: readonly 'threads'[] };
  /** Whether its family emitter generates the op's kernel. */
  generates(spec: LoadedSpec): boolean;
  /**
   * An op it neither generates nor has a kernel file for: `js` runs it on the JS kernel, declared here once for
   * the backend (reported as delegated); `missing` is a codegen error naming the file to write. A spec overrides
   * either for itself with `dispatch: {<name>: js}`.
   */
  unported: 'js' | 'missing';
  /**
   * What else it generates, by path under its package folder (its kernel table is written for every backend);
   * `packageDir` is that folder, where its templates are.
   */
  outputs(specs: LoadedSpec[], packageDir: string): Record<string, string>;
}

/** A declared backend, with the folder under packages/ its declaration was found in. */
export interface BackendTarget extends TargetDeclaration {
  dir: string;
}
