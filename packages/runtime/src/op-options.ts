import { describe } from './dtype.js';
import { isPlainObject } from './plain-object.js';

/**
 * The options object of a typed op call (`sparse.reduceSum(st, { axis: 1 })`), checked: undefined or a plain object
 * whose every key is one of `names`, the op's options. A misspelled key (`axes`, `default_value`) would otherwise be
 * ignored and its default used without a word; it is a TypeError naming it and the options there are. So are
 * arguments past the options object (`extra`).
 */
export function readOptions<T extends object>(
  fn: string,
  options: T | undefined,
  names: readonly (keyof T & string)[],
  extra: readonly unknown[],
): Partial<T> {
  if (extra.length > 0) {
    throw new TypeError(
      `sparse.${fn}: the optional arguments go in one options object, the last argument; got ${extra.length} more after it`,
    );
  }
  if (options === undefined) return {};
  if (!isPlainObject(options)) {
    throw new TypeError(`sparse.${fn}: options must be an object such as { ${names[0]}: … }, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if ((names as readonly string[]).includes(key)) continue;
    const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    const hint = camel !== key && (names as readonly string[]).includes(camel) ? ` (did you mean '${camel}'?)` : '';
    throw new TypeError(`sparse.${fn}: unknown option '${key}'${hint}; the options are ${names.join(', ')}`);
  }
  return options;
}

/** Refuses arguments past the last one of an op without options (`sparse.reorder(st, { axis: 1 })`). */
export function refuseExtraArguments(fn: string, params: number, extra: readonly unknown[]): void {
  if (extra.length > 0) {
    throw new TypeError(
      `sparse.${fn} takes ${params} argument${params === 1 ? '' : 's'} and no options; got ${params + extra.length}`,
    );
  }
}
