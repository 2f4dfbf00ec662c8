/** A value as a case file would write it: `nan`, `inf`, digits for bigints, JSON for strings, `[a,b]` for lists. */
export function formatValue(x: unknown): string {
  if (typeof x === 'number') {
    if (Number.isNaN(x)) return 'nan';
    if (x === Infinity) return 'inf';
    if (x === -Infinity) return '-inf';
    return String(x);
  }
  if (typeof x === 'bigint') return x.toString();
  if (typeof x === 'string') return JSON.stringify(x);
  if (Array.isArray(x)) return `[${x.map(formatValue).join(',')}]`;
  if (x === undefined) return 'undefined';
  return JSON.stringify(x) ?? String(x);
}
