/** One thing wrong with one spec, located by file, field path and (where known) line. */
export interface SpecProblem {
  file: string;
  field: string;
  line?: number;
  message: string;
}

export class SpecError extends Error {
  override name = 'SpecError';
  constructor(readonly problems: SpecProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

export function formatProblem(p: SpecProblem): string {
  const where = p.line === undefined ? p.file : `${p.file}:${p.line}`;
  return `${where}: ${p.field || '(spec)'}: ${p.message}`;
}

/** `['args', 1, 'dtype']` → `args[1].dtype` */
export function fieldPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out;
}
