import { existsSync, readdirSync } from 'node:fs';
import { camelCase } from './naming.js';
import { SpecError, type SpecProblem } from './spec-error.js';
import type { Dispatch } from './backend-targets.js';
import type { LoadedSpec } from './spec-types.js';

/** How one backend keeps its hand-written kernels: one file per op in `rel` (`packages/<pkg>/src/kernels`). */
export interface KernelFiles {
  /** The backend as messages name it. */
  label: string;
  rel: string;
  /** How the op runs there, given whether its kernel file is present; `js` only where the backend may hand an op to the JS kernels. */
  dispatchOf(spec: LoadedSpec, hasKernel: boolean): Dispatch;
  /** The dispatch a spec writes to run an op on the JS kernels there, if it may. */
  delegation?: string;
}

/**
 * Matches the specs with the kernel files in `kernelsDir`: each hand-written op has its file (or, where the backend
 * may, a declared delegation), a generated or delegated op has none, and no file names no op. Returns the ops with
 * a file of their own and those delegated; throws one SpecError listing every mismatch.
 */
export function matchKernelFiles(
  specs: LoadedSpec[],
  backend: KernelFiles,
  kernelsDir: string,
): { own: LoadedSpec[]; delegated: string[] } {
  const { label, rel, delegation } = backend;
  const files = new Set(
    existsSync(kernelsDir) ? readdirSync(kernelsDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')) : [],
  );
  const problems: SpecProblem[] = [];
  const own: LoadedSpec[] = [];
  const delegated: string[] = [];
  for (const s of specs) {
    const hasFile = files.delete(`${s.name}.ts`);
    const how = backend.dispatchOf(s, hasFile);
    const problem = (message: string) => problems.push({ file: s.file, field: 'kernel', message });
    if (how === 'kernel' && !hasFile)
      problem(
        `the ${label} backend has no kernel for ${s.name}: write ${rel}/${s.name}.ts exporting ${camelCase(s.name)}` +
          (delegation ? `, or declare \`${delegation}\` to run it on the JS kernels there` : ''),
      );
    if (how === 'generated' && hasFile)
      problem(`the ${label} kernel of ${s.name} is generated from its expressions: delete ${rel}/${s.name}.ts`);
    if (how === 'js' && hasFile)
      problem(`${s.name} declares \`${delegation}\` but has ${rel}/${s.name}.ts: drop one of them`);
    if (how === 'kernel' && hasFile) own.push(s);
    if (how === 'js') delegated.push(s.name);
  }
  for (const stray of files)
    problems.push({
      file: `${rel}/${stray}`,
      field: '',
      message: `no spec is named ${stray.replace(/\.ts$/, '')}: a file in ${rel} is one op's kernel (helpers live outside it)`,
    });
  if (problems.length) throw new SpecError(problems);
  return { own, delegated };
}
