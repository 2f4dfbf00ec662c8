// The options object of a @sparse/tfjs function, checked as the runtime checks its ops' options (op-options.ts of
// @sparse/runtime): a misspelled key would otherwise be ignored and its default used without a word.

/** Whether `x` is a plain object (`{…}` or `Object.create(null)`), not a class instance or an array. */
function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null) return false;
  const proto = Object.getPrototypeOf(x) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Levenshtein distance, for the short option names compared here. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/** The option `key` was likely meant as: its camelCase form, the same letters in another case, or a near spelling. */
function closest(key: string, names: readonly string[]): string | undefined {
  const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  if (names.includes(camel)) return camel;
  const flat = (s: string) => s.replace(/_/g, '').toLowerCase();
  const same = names.find((n) => flat(n) === flat(key));
  if (same) return same;
  let best: string | undefined;
  let bestD = Math.min(2, Math.floor(key.length / 3));
  for (const n of names) {
    const d = distance(flat(key), flat(n));
    if (d <= bestD) [best, bestD] = [n, d - 1];
  }
  return best;
}

/**
 * Checks the options of `fn`: undefined, or a plain object whose every key is one of `names`; anything else is a
 * TypeError naming `fn`, the key and the options there are (and the one meant, where a close spelling is one).
 */
export function checkOptions(fn: string, options: unknown, names: readonly string[]): void {
  if (options === undefined) return;
  if (!isPlainObject(options))
    throw new TypeError(`${fn}: options must be an object such as { ${names[0]}: … }, got ${describeValue(options)}`);
  for (const key of Object.keys(options)) {
    if (names.includes(key)) continue;
    const hint = closest(key, names);
    throw new TypeError(
      `${fn}: unknown option '${key}'${hint ? ` (did you mean '${hint}'?)` : ''}; the options are ${names.join(', ')}`,
    );
  }
}

/** Refuses arguments past the options object of `fn`, which takes at most `params`. */
export function refuseExtraArguments(fn: string, given: number, params: number): void {
  if (given > params)
    throw new TypeError(
      `${fn}: the optional arguments go in one options object, the last of ${params} arguments; got ${given}`,
    );
}

function describeValue(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'object') return `a ${(x as object).constructor?.name ?? 'object'}`;
  return `${typeof x} ${String(x)}`;
}
