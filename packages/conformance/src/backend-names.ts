/** The backends a `--backend` value names: a comma-separated list, where `all` stands for every registered backend. */
export function parseBackendList(spec: string, registered: readonly string[]): string[] {
  const names = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const expanded = names.flatMap((n) => (n === 'all' ? [...registered] : [n]));
  return [...new Set(expanded)];
}
