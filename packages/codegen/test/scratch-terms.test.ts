import { expect, it } from 'vitest';
import { emitOpsMeta } from '../src/emit-meta.js';
import { editedSpecLoader } from './spec-folder.js';
import { specProblems } from './spec-problems.js';

const load = editedSpecLoader();

const SPLIT = 'sparse_split.yaml';
const withScratch = (term: string) => (y: string) =>
  y
    .replace(/ {2}scratch:\n(?: {4}.*\n)+/, '')
    .replace('  wide_axis: axis\n', `  wide_axis: axis\n  scratch:\n    - ${term}\n`);

it('a spec declares working memory in kernel.scratch, which the runtime meta carries', () => {
  const [spec] = load(SPLIT, withScratch('{ bytes: 8, dims: [sp_input, [-1]] }'));
  expect(spec.kernel.scratch).toEqual([{ bytes: 8, dims: ['sp_input', [-1]] }]);
  expect(emitOpsMeta([spec])).toContain('"scratch"');
});

it('refuses a scratch term measuring an unknown argument or one of the wrong type, or flags that are not bool', () => {
  expect(specProblems(() => load(SPLIT, withScratch('{ bytes: 8, nnz: nothing }')))).toMatch(
    /kernel\.scratch\[0\]\.nnz: unknown argument 'nothing'/,
  );
  expect(specProblems(() => load(SPLIT, withScratch('{ bytes: 8, min: [sp_input] }')))).toMatch(
    /kernel\.scratch\[0\]\.min: 'sp_input' is a sparse argument; min needs int/,
  );
  expect(specProblems(() => load(SPLIT, withScratch('{ bytes: 8, nnz: sp_input, when: [axis] }')))).toMatch(
    /kernel\.scratch\[0\]\.when: 'axis' is not a bool argument/,
  );
});

it('refuses a scratch term without exactly one measure, or without its bytes', () => {
  expect(specProblems(() => load(SPLIT, withScratch('{ bytes: 8 }')))).toMatch(/kernel\.scratch\[0\]/);
  expect(specProblems(() => load(SPLIT, withScratch('{ bytes: 8, nnz: sp_input, min: [num_split] }')))).toMatch(
    /kernel\.scratch\[0\]/,
  );
  expect(specProblems(() => load(SPLIT, withScratch('{ nnz: sp_input }')))).toMatch(/kernel\.scratch\[0\]/);
});
