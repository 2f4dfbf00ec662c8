import { ERROR_KINDS, type Case, type Example } from './case.js';
import { readExpectedOutput } from './expected-output.js';
import { formatValue } from './format-value.js';
import { checkArgsAgainst, checkExpectAgainst, type OpSignature } from './op-signature.js';
import { missingField, Tally, type Report } from './report.js';
import { checkTensorFormsIn, onlyFields } from './tensor-fields.js';
import { isRecord } from './value-forms.js';

const CASE_FIELDS = ['op', 'name', 'doc', 'args', 'expect', 'expect_error', 'tolerance'];

/** Example names become test names and anchors, so they keep to a safe alphabet. */
const EXAMPLE_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Checks that `raw` is a case (docs/cases.md), reporting every problem with its path, and returns whether there was
 * none. `expect` is checked in depth (the case's author owns it); `args` for the fields of their tensor forms, as
 * judging argument values is the runtime's job (a case may pass a bad value on purpose to expect an error).
 *
 * With `exampleOf`, `raw` is an example in that op's spec, held to more: `op` may be left out (and must be the
 * spec's if given), the name keeps to `[A-Za-z0-9_.-]`, arguments and outputs must be the op's, every required
 * argument given, and in an `expect` example every value has a form its type calls for, with a known dtype.
 */
export function validateCase(raw: unknown, report: Report): raw is Case;
export function validateCase(raw: unknown, report: Report, exampleOf: OpSignature): raw is Example;
export function validateCase(raw: unknown, report: Report, exampleOf?: OpSignature): boolean {
  if (!isRecord(raw)) {
    report([], `a case must be a mapping, got ${formatValue(raw)}`);
    return false;
  }
  const tally = new Tally(report);
  onlyFields(raw, CASE_FIELDS, [], tally.report);
  checkOp(raw.op, exampleOf?.op, tally.report);
  checkName(raw.name, exampleOf !== undefined, tally.report);
  if (raw.doc !== undefined && (typeof raw.doc !== 'string' || raw.doc === ''))
    tally.report(['doc'], `must be a non-empty string, got ${formatValue(raw.doc)}`);

  const expectsOutputs = raw.expect !== undefined;
  if (expectsOutputs === (raw.expect_error !== undefined))
    tally.report([], `a case has exactly one of 'expect' and 'expect_error'`);
  // An example that expects an error may pass a wrong kind on purpose (a dense tensor where a SparseTensor is due).
  const typed = exampleOf !== undefined && expectsOutputs;
  checkArgs(raw.args, exampleOf, typed, tally.report);
  if (expectsOutputs) checkExpect(raw.expect, exampleOf, tally.report);
  if (raw.expect_error !== undefined) checkExpectError(raw.expect_error, tally.report);
  if (raw.tolerance !== undefined) checkTolerance(raw.tolerance, tally.report);
  return tally.clean;
}

function checkOp(op: unknown, specOp: string | undefined, report: Report): void {
  if (specOp !== undefined) {
    if (op !== undefined && op !== specOp) report(['op'], `an example of ${specOp} names the op ${formatValue(op)}`);
  } else if (op === undefined) report([], missingField('op'));
  else if (typeof op !== 'string' || op === '')
    report(['op'], `must be the op id, a non-empty string, got ${formatValue(op)}`);
}

function checkName(name: unknown, isExample: boolean, report: Report): void {
  if (name === undefined) report([], missingField('name'));
  else if (typeof name !== 'string' || name === '')
    report(['name'], `must be a non-empty string, got ${formatValue(name)}`);
  else if (isExample && !EXAMPLE_NAME.test(name))
    report(['name'], `an example's name is made of letters, digits, '_', '.' and '-', got ${formatValue(name)}`);
}

/** With `typed`, an example's argument values must have the forms of their types, with known dtypes. */
function checkArgs(args: unknown, exampleOf: OpSignature | undefined, typed: boolean, report: Report): void {
  if (args === undefined) {
    report([], missingField('args'));
    return;
  }
  if (!isRecord(args)) {
    report(['args'], `must be a mapping of argument name to value, got ${formatValue(args)}`);
    return;
  }
  for (const [name, value] of Object.entries(args))
    checkTensorFormsIn(value, ['args', name], report, typed ? 'known' : 'any');
  if (exampleOf) checkArgsAgainst(args, exampleOf, typed, report);
}

function checkExpect(expect: unknown, exampleOf: OpSignature | undefined, report: Report): void {
  if (!isRecord(expect) || Object.keys(expect).length === 0) {
    report(['expect'], `must be a mapping of output name to value, such as {output: ...}, got ${formatValue(expect)}`);
    return;
  }
  for (const [name, value] of Object.entries(expect)) readExpectedOutput(value, ['expect', name], report);
  if (exampleOf) checkExpectAgainst(expect, exampleOf, report);
}

function checkExpectError(e: unknown, report: Report): void {
  if (!isRecord(e)) {
    report(['expect_error'], `must be {kind, match?}, got ${formatValue(e)}`);
    return;
  }
  onlyFields(e, ['kind', 'match'], ['expect_error'], report);
  if (!(ERROR_KINDS as readonly unknown[]).includes(e.kind))
    report(['expect_error', 'kind'], `must be one of ${ERROR_KINDS.join(', ')}, got ${formatValue(e.kind)}`);
  if (e.match === undefined) return;
  if (typeof e.match !== 'string') {
    report(['expect_error', 'match'], `must be a regex, as a string, got ${formatValue(e.match)}`);
    return;
  }
  try {
    new RegExp(e.match);
  } catch (err) {
    report(['expect_error', 'match'], `not a valid regex: ${(err as Error).message}`);
  }
}

function checkTolerance(t: unknown, report: Report): void {
  if (!isRecord(t)) {
    report(['tolerance'], `must be {rtol?, atol?}, got ${formatValue(t)}`);
    return;
  }
  onlyFields(t, ['rtol', 'atol'], ['tolerance'], report);
  for (const k of ['rtol', 'atol']) {
    const v = t[k];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0))
      report(['tolerance', k], `must be a number >= 0, got ${formatValue(v)}`);
  }
}
