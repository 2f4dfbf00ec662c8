import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadSpecs, SpecError } from '../src/index.js';
import { CHECK_RULES } from '../src/check-rules.js';
import { writeSpec } from './spec-folder.js';

const GOOD = readFileSync(join(import.meta.dirname, '../../../specs/sparse_tensor_to_dense.yaml'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'specs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The problems codegen finds in sparse_tensor_to_dense with these checks instead of its own. */
function problemsWith(checks: object[]): string {
  const yaml = GOOD.replace(/^checks:\n(?: {2}.*\n)+/m, stringify({ checks }));
  writeSpec(dir, 'sparse_tensor_to_dense.yaml', yaml);
  try {
    loadSpecs(dir, dir);
    return '';
  } catch (e) {
    expect(e).toBeInstanceOf(SpecError);
    return (e as SpecError).message;
  }
}

/** A check of `rule` with every field filled: argument fields name `name`, the rest take a valid value. */
function checkOf(rule: string, name: string): Record<string, unknown> {
  const fields = CHECK_RULES[rule as keyof typeof CHECK_RULES].fields as Record<string, { kind: string }>;
  const value = (kind: string) =>
    ({ arg: name, arg_pair: [name, name], integer: 1, identifier: 'a_check', text: 'Why.' })[kind];
  return { rule, ...Object.fromEntries(Object.entries(fields).map(([f, d]) => [f, value(d.kind)])) };
}

describe('the check rules table drives the schema and the validation of checks', () => {
  it('the real spec passes with its own checks', () => {
    expect(problemsWith([{ rule: 'indices_ordered', arg: 'sp_input', when: 'validate_indices' }])).toBe('');
  });

  for (const rule of Object.keys(CHECK_RULES)) {
    const argFields = Object.entries(CHECK_RULES[rule as keyof typeof CHECK_RULES].fields).filter(([, d]) =>
      ['arg', 'arg_pair'].includes(d.kind),
    );
    it(`${rule}: every field of the table is in the schema, and each argument field is checked`, () => {
      const problems = problemsWith([checkOf(rule, 'no_such_arg')]);
      expect(problems).not.toMatch(/unknown field/);
      for (const [field] of argFields)
        expect(problems).toMatch(new RegExp(`checks\\[0\\]\\.${field}: unknown argument 'no_such_arg'`));
      if (argFields.length === 0) expect(problems).toBe('');
      expect(problemsWith([{ ...checkOf(rule, 'sp_input'), extra: 1 }])).toMatch(/checks\[0\]\.extra: unknown field/);
    });
  }

  it('an argument of a type the rule does not take is named with the types it does', () => {
    expect(problemsWith([{ rule: 'broadcast_to_sparse', dense: 'sp_input', sparse: 'sp_input' }])).toMatch(
      /checks\[0\]\.dense: 'sp_input' is a sparse argument; broadcast_to_sparse needs dense or scalar/,
    );
  });
});
