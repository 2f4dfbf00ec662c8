import type { Backend } from './backend.js';

/**
 * Loads a backend from a package that is a separate install, not a dependency of ours (the GPU backend: gpu.js
 * and headless-gl are large and native, and most users never load them), where it is installed beside this one
 * (Node). The specifier is not a literal, so that bundlers do not try to resolve a package the app may not have;
 * a bundled app registers the backend itself, as the error says.
 */
export async function loadOptionalBackend(
  name: string,
  pkg: string,
  factory: string,
  option: unknown,
): Promise<Backend> {
  let mod: Record<string, (option?: unknown) => Promise<Backend>>;
  try {
    mod = await import(/* webpackIgnore: true */ /* @vite-ignore */ pkg);
  } catch (e) {
    throw new Error(
      `the '${name}' backend is the separate package ${pkg}, which could not be loaded (${(e as Error).message}). ` +
        `Install it (npm install ${pkg}); in a bundled app, also register it: ` +
        `import { ${factory} } from '${pkg}'; registerBackend('${name}', ${factory});`,
      { cause: e },
    );
  }
  return option === undefined ? mod[factory]() : mod[factory](option);
}
