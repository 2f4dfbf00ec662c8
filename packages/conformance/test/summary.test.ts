import { describe, expect, it } from 'vitest';
import { parseBackendList } from '../src/backend-names.js';
import type { CaseResult, CaseStatus } from '../src/case-result.js';
import { countByBackend, formatSummaryLine } from '../src/summary.js';

const result = (backend: string, status: CaseStatus): CaseResult => ({
  op: 'op',
  name: `${backend}-${status}`,
  backend,
  status,
  message: '',
});

describe('summary lines', () => {
  it('counts per backend, in the order asked, listing backends with no results', () => {
    const results = [
      result('wasm', 'failed'),
      result('js', 'passed'),
      result('js', 'passed'),
      result('js', 'unsupported'),
      result('wasm', 'delegated'),
    ];
    const lines = [...countByBackend(results, ['js', 'wasm', 'gpu'])].map(([b, c]) => formatSummaryLine(b, c));
    expect(lines).toEqual([
      'js: 2 passed, 0 failed, 1 unsupported',
      'wasm: 0 passed, 1 failed, 0 unsupported, 1 delegated',
      'gpu: 0 passed, 0 failed, 0 unsupported',
    ]);
  });
});

describe('--backend', () => {
  it('splits a comma-separated list and expands `all` to every registered backend, once each', () => {
    expect(parseBackendList('js', ['js', 'wasm'])).toEqual(['js']);
    expect(parseBackendList(' js , gpu ,', ['js'])).toEqual(['js', 'gpu']);
    expect(parseBackendList('all', ['js', 'wasm'])).toEqual(['js', 'wasm']);
    expect(parseBackendList('wasm,all', ['js', 'wasm'])).toEqual(['wasm', 'js']);
    expect(parseBackendList(',', ['js'])).toEqual([]);
  });
});
