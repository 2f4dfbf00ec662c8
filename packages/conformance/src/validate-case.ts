import { ERROR_KINDS, type Case } from './case.js';
import { formatValue, isDenseForm, isRecord, isSparseForm } from './case-values.js';
import { expectedView } from './expected-view.js';

const CASE_KEYS = ['op', 'name', 'doc', 'args', 'expect', 'expect_error', 'tolerance'];

/**
 * Checks that `raw` has the shape of a case (docs/cases.md) and returns it typed; throws an Error describing the first
 * problem. `expect` is checked in depth (the case's author owns it); `args` only for the tensor forms' fields,
 * since judging argument values is the runtime's job (a case may pass a bad value on purpose to expect an error).
 */
export function validateCase(raw: unknown): Case {
  if (!isRecord(raw)) throw new Error(`a case must be a mapping, got ${formatValue(raw)}`);
  const unknown = Object.keys(raw).find((k) => !CASE_KEYS.includes(k));
  if (unknown !== undefined) throw new Error(`unknown field '${unknown}' (a case has ${CASE_KEYS.join(', ')})`);
  if (typeof raw.op !== 'string' || raw.op === '') throw new Error(`'op' must be the op id, a non-empty string`);
  if (typeof raw.name !== 'string' || raw.name === '') throw new Error(`'name' must be a non-empty string`);
  if (raw.doc !== undefined && typeof raw.doc !== 'string') throw new Error(`'doc' must be a string`);
  if (!isRecord(raw.args)) throw new Error(`'args' must be a mapping of argument name to value`);
  for (const [name, value] of Object.entries(raw.args)) checkArgForms(value, `args.${name}`);

  if ((raw.expect === undefined) === (raw.expect_error === undefined)) {
    throw new Error(`a case has exactly one of 'expect' and 'expect_error'`);
  }
  if (raw.expect !== undefined) {
    if (!isRecord(raw.expect) || Object.keys(raw.expect).length === 0) {
      throw new Error(`'expect' must be a mapping of output name to value (e.g. {output: ...})`);
    }
    for (const [name, value] of Object.entries(raw.expect)) expectedView(value, `expect.${name}`);
  }
  if (raw.expect_error !== undefined) checkExpectError(raw.expect_error);
  if (raw.tolerance !== undefined) checkTolerance(raw.tolerance);
  return raw as unknown as Case;
}

function checkExpectError(e: unknown): void {
  if (!isRecord(e)) throw new Error(`'expect_error' must be {kind, match?}`);
  const extra = Object.keys(e).find((k) => k !== 'kind' && k !== 'match');
  if (extra !== undefined) throw new Error(`expect_error: unknown field '${extra}' (allowed: kind, match)`);
  if (!(ERROR_KINDS as readonly unknown[]).includes(e.kind)) {
    throw new Error(`expect_error.kind must be one of ${ERROR_KINDS.join(', ')}, got ${formatValue(e.kind)}`);
  }
  if (e.match !== undefined) {
    if (typeof e.match !== 'string') throw new Error(`expect_error.match must be a regex, as a string`);
    try {
      new RegExp(e.match);
    } catch (err) {
      throw new Error(`expect_error.match is not a valid regex: ${(err as Error).message}`, { cause: err });
    }
  }
}

function checkTolerance(t: unknown): void {
  if (!isRecord(t)) throw new Error(`'tolerance' must be {rtol?, atol?}`);
  for (const [k, v] of Object.entries(t)) {
    if (k !== 'rtol' && k !== 'atol') throw new Error(`tolerance: unknown field '${k}' (allowed: rtol, atol)`);
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new Error(`tolerance.${k} must be a number >= 0, got ${formatValue(v)}`);
  }
}

/** The fields of tensor forms among the args, wherever they are nested in lists. */
function checkArgForms(value: unknown, path: string): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => checkArgForms(v, `${path}[${i}]`));
    return;
  }
  if (isSparseForm(value)) {
    onlyKeys(value, ['sparse', 'dtype'], path);
    const s = value.sparse;
    if (!isRecord(s)) throw new Error(`${path}.sparse must be {indices, values, dense_shape}`);
    onlyKeys(s, ['indices', 'values', 'dense_shape'], `${path}.sparse`);
    for (const k of ['indices', 'values', 'dense_shape']) {
      if (!Array.isArray(s[k])) throw new Error(`${path}.sparse.${k} must be a list`);
    }
  } else if (isDenseForm(value)) {
    onlyKeys(value, ['dense', 'dtype', 'shape'], path);
    if (value.shape !== undefined && !Array.isArray(value.shape))
      throw new Error(`${path}.shape must be a list of dims`);
  } else return;
  if (value.dtype !== undefined && typeof value.dtype !== 'string')
    throw new Error(`${path}.dtype must be a dtype name`);
}

function onlyKeys(x: Record<string, unknown>, allowed: string[], path: string): void {
  const extra = Object.keys(x).find((k) => !allowed.includes(k));
  if (extra !== undefined) throw new Error(`${path}: unknown field '${extra}' (allowed: ${allowed.join(', ')})`);
}
