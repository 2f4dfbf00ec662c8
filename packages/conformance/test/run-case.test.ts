import { InvalidArgumentError, SparseTensor, Tensor, UnimplementedError } from '@sparse/runtime';
import { describe, expect, it } from 'vitest';
import type { Case } from '@sparse/case-format';
import { runCase, type CaseRuntime } from '../src/run-case.js';
import { runCases, type RunStep } from '../src/run-cases.js';
import type { UnreadableCase } from '../src/unreadable-case.js';

/** A runtime stand-in whose one op `op` behaves as `behave` says; any other op is unknown to it. */
function fakeRuntime(
  behave: (args: Record<string, unknown>) => Record<string, unknown>,
): CaseRuntime & { seen: Record<string, unknown>[] } {
  const seen: Record<string, unknown>[] = [];
  return {
    backend: 'fake',
    seen,
    hasOp: (op) => op === 'op',
    run: (_op, args) => {
      seen.push(args);
      return behave(args);
    },
  };
}

const throwing = (e: unknown) =>
  fakeRuntime(() => {
    throw e;
  });

const errorCase = (kind: 'InvalidArgument' | 'TypeError', match?: string): Case => ({
  op: 'op',
  name: 'err',
  args: {},
  expect_error: match === undefined ? { kind } : { kind, match },
});

const outputCase: Case = {
  op: 'op',
  name: 'out',
  args: {
    sp_input: { sparse: { indices: [[0], [2]], values: ['nan', 2], dense_shape: [3] }, dtype: 'float32' },
    axis: 1,
    shape: [2, 3],
  },
  expect: { output: { dense: [1.5, 'inf'], dtype: 'float64' } },
};

describe('runCase: expect_error cases', () => {
  it('passes on an InvalidArgumentError whose message matches', async () => {
    const r = await runCase(
      throwing(new InvalidArgumentError('indices[1] = [0,0] is out of order')),
      errorCase('InvalidArgument', 'out of order'),
    );
    expect(r).toEqual({ op: 'op', name: 'err', backend: 'fake', status: 'passed', message: '' });
  });

  it('passes on a TypeError when one is expected, with no match given', async () => {
    expect(
      (await runCase(throwing(new TypeError('sp_input must be a SparseTensor')), errorCase('TypeError'))).status,
    ).toBe('passed');
  });

  it('fails when the message does not match', async () => {
    const r = await runCase(
      throwing(new InvalidArgumentError('shapes differ')),
      errorCase('InvalidArgument', 'out of order'),
    );
    expect(r.status).toBe('failed');
    expect(r.message).toBe('expected an InvalidArgumentError matching /out of order/, got the message: shapes differ');
  });

  it('matches in linear time: a pattern catastrophic for a backtracking RegExp fails at once', async () => {
    const started = performance.now();
    const r = await runCase(throwing(new TypeError(`'${'a'.repeat(5000)}'`)), errorCase('TypeError', '(a+)+$'));
    expect(r.status).toBe('failed');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('fails, saying why, on a pattern RE2 cannot run (a backreference)', async () => {
    const r = await runCase(throwing(new TypeError('aa')), errorCase('TypeError', '(a)\\1'));
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^expect_error\.match \/\(a\)\\1\/ cannot be matched: .*invalid escape/);
  });

  it('fails on the other kind of error', async () => {
    const r = await runCase(throwing(new TypeError('wrong kind')), errorCase('InvalidArgument'));
    expect(r.status).toBe('failed');
    expect(r.message).toBe('expected an InvalidArgumentError, got TypeError: wrong kind');
    expect((await runCase(throwing(new InvalidArgumentError('bad data')), errorCase('TypeError'))).status).toBe(
      'failed',
    );
  });

  it.each([
    ['a RangeError', new RangeError('Invalid array length'), 'RangeError: Invalid array length'],
    ['a plain Error', new Error('boom'), 'Error: boom'],
    ['a thrown string', 'oops', 'a non-Error value: oops'],
  ])('fails on %s, naming it, whichever kind is expected', async (_what, thrown, named) => {
    for (const kind of ['InvalidArgument', 'TypeError'] as const) {
      const r = await runCase(throwing(thrown), errorCase(kind));
      expect(r.status).toBe('failed');
      expect(r.message).toContain(named);
    }
  });

  it('fails when the op returns normally', async () => {
    const r = await runCase(
      fakeRuntime(() => ({ output: [] })),
      errorCase('TypeError', 'dtype'),
    );
    expect(r).toMatchObject({
      status: 'failed',
      message: 'expected a TypeError matching /dtype/, but the op returned normally',
    });
  });

  it('counts an error raised while building the arguments (a bad SparseTensor)', async () => {
    const c: Case = {
      op: 'op',
      name: 'bad_st',
      args: { sp_input: { sparse: { indices: [[0], [1]], values: [1], dense_shape: [3] }, dtype: 'int32' } },
      expect_error: { kind: 'InvalidArgument' },
    };
    const rt = fakeRuntime(() => ({}));
    expect((await runCase(rt, c)).status).toBe('passed');
    expect(rt.seen).toHaveLength(0);
  });
});

describe('runCase: unsupported', () => {
  it('when the runtime does not have the op, without running it', async () => {
    const rt = fakeRuntime(() => ({}));
    const r = await runCase(rt, { ...outputCase, op: 'other' });
    expect(r).toMatchObject({ op: 'other', status: 'unsupported' });
    expect(r.message).toContain('other');
    expect(rt.seen).toHaveLength(0);
  });

  it('when the runtime throws UnimplementedError, even for an error-expecting case', async () => {
    const r = await runCase(
      throwing(new UnimplementedError('op has no kernel for string')),
      errorCase('InvalidArgument'),
    );
    expect(r).toMatchObject({ status: 'unsupported', message: 'op has no kernel for string' });
  });
});

describe('runCase: expect cases', () => {
  it('converts the args and passes when the outputs agree', async () => {
    const rt = fakeRuntime(() => ({ output: new Tensor(Float64Array.from([1.5, Infinity]), [2], 'float64') }));
    expect(await runCase(rt, outputCase)).toMatchObject({ status: 'passed', message: '' });
    const [args] = rt.seen;
    expect(args.sp_input).toBeInstanceOf(SparseTensor);
    expect(Array.from((args.sp_input as SparseTensor).values as Float32Array)).toEqual([NaN, 2]);
    expect(args.axis).toBe(1);
    expect(args.shape).toEqual([2, 3]);
  });

  it('fails with what differs', async () => {
    const rt = fakeRuntime(() => ({ output: new Tensor(Float64Array.from([1.25, Infinity]), [2], 'float64') }));
    expect(await runCase(rt, outputCase)).toMatchObject({ status: 'failed', message: 'output[0]: got 1.25, want 1.5' });
  });

  it('fails with the error when the op throws', async () => {
    const r = await runCase(throwing(new InvalidArgumentError('shapes differ')), outputCase);
    expect(r).toMatchObject({ status: 'failed', message: 'threw InvalidArgumentError: shapes differ' });
  });
});

describe('runCases', () => {
  it('reports every case of a backend that cannot be created as unsupported, with the reason', async () => {
    const results = await runCases([outputCase, errorCase('TypeError')], ['no_such_backend']);
    expect(results.map((r) => [r.backend, r.name, r.status])).toEqual([
      ['no_such_backend', 'out', 'unsupported'],
      ['no_such_backend', 'err', 'unsupported'],
    ]);
    expect(results[0].message).toMatch(/^backend no_such_backend is unavailable: .*no_such_backend/);
  });

  it('runs on the js backend, backend by backend', async () => {
    const toDense: Case = {
      op: 'sparse_tensor_to_dense',
      name: 'to_dense',
      args: { sp_input: { sparse: { indices: [[0, 1]], values: [7], dense_shape: [2, 2] }, dtype: 'int32' } },
      expect: {
        output: {
          dense: [
            [0, 7],
            [0, 0],
          ],
          dtype: 'int32',
        },
      },
    };
    const results = await runCases([toDense, { ...toDense, op: 'no_such_op' }], ['js', 'nope']);
    expect(results.map((r) => `${r.backend} ${r.op} ${r.status}`)).toEqual([
      'js sparse_tensor_to_dense passed',
      'js no_such_op unsupported',
      'nope sparse_tensor_to_dense unsupported',
      'nope no_such_op unsupported',
    ]);
  });

  it('fails an unreadable case on every backend, with its reason, without running it', async () => {
    const unreadable: UnreadableCase = { op: 'op', name: 'broken', unreadable: 'f.yaml: cases[0] (broken): why' };
    const results = await runCases([unreadable], ['js', 'nope']);
    expect(results).toEqual([
      { op: 'op', name: 'broken', backend: 'js', status: 'failed', message: 'f.yaml: cases[0] (broken): why' },
      { op: 'op', name: 'broken', backend: 'nope', status: 'failed', message: 'f.yaml: cases[0] (broken): why' },
    ]);
  });

  it('reports each step before taking it, and resumes from a given unit', async () => {
    const steps: RunStep[] = [];
    const results = await runCases([outputCase, errorCase('TypeError')], ['js', 'nope'], {
      from: 1,
      onStep: (s) => steps.push(s),
    });
    expect(results.map((r) => `${r.backend} ${r.name}`)).toEqual(['js err', 'nope out', 'nope err']);
    expect(steps.map((s) => (s.step === 'opening' ? `opening ${s.backend}` : `${s.step} ${s.unit}`))).toEqual([
      'opening js',
      'running 1',
      'finished 1',
      'opening nope',
      'running 2',
      'finished 2',
      'running 3',
      'finished 3',
    ]);
  });
});
