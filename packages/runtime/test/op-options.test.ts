import { describe, expect, it } from 'vitest';
import { SparseTensor, createRuntime, getOpInfo, listOps, sparse, type OpMeta } from '@sparse/runtime';
import { bindOps } from '../src/generated/ops-api.js';

// The typed API's options object: every key it holds is one of the op's options, and each reaches `run` under its
// spec name. Checked for every op of the specs, not a list written here.

type OpFunction = (...args: unknown[]) => unknown;

const camelCase = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The op's optional arguments as the typed API names them, each with the spec name `run` gets. */
const optionsOf = (op: OpMeta) =>
  op.args
    .filter((a) => a.default !== undefined)
    .flatMap((a) => [a.name, ...a.aliases].map((specName) => ({ key: camelCase(specName), specName })));

const requiredCount = (op: OpMeta) => op.args.filter((a) => a.default === undefined).length;

const ops = listOps().map((id) => getOpInfo(id)!);

/** The typed API over a `run` that records what it is called with instead of running anything. */
function recordingOps() {
  const calls: { opId: string; args: Record<string, unknown> }[] = [];
  const api = bindOps((opId, args) => {
    calls.push({ opId, args });
    return {};
  }) as unknown as Record<string, OpFunction>;
  return { api, calls };
}

describe('the options object of every op', () => {
  it.each(ops.map((op) => [op.apiName, op] as const))(
    'sparse.%s refuses an unknown key (or, without options, any argument past its own) before running',
    (_name, op) => {
      const { api, calls } = recordingOps();
      const required = new Array(requiredCount(op)).fill(undefined);
      const call = () => api[op.apiName](...required, { notAnOption: 1 });
      expect(call).toThrow(TypeError);
      const options = optionsOf(op);
      if (options.length > 0) {
        expect(call).toThrow(`sparse.${op.apiName}: unknown option 'notAnOption'`);
        for (const { key } of options) expect(call).toThrow(key);
      } else {
        expect(call).toThrow(`sparse.${op.apiName} takes ${required.length} argument`);
      }
      expect(calls).toEqual([]);
    },
  );

  it.each(ops.filter((op) => optionsOf(op).length > 0).map((op) => [op.apiName, op] as const))(
    'sparse.%s hands each of its options (aliases included) to run under its spec name',
    (_name, op) => {
      const { api, calls } = recordingOps();
      const required = new Array(requiredCount(op)).fill(undefined);
      for (const { key, specName } of optionsOf(op)) {
        const sentinel = Symbol(key);
        api[op.apiName](...required, { [key]: sentinel });
        const { opId, args } = calls.at(-1)!;
        expect(opId).toBe(op.name);
        expect(Object.entries(args).filter(([, v]) => v === sentinel)).toEqual([[specName, sentinel]]);
      }
    },
  );

  it('refuses an options value that is not a plain object, and arguments past the options', () => {
    const { api } = recordingOps();
    expect(() => api.reduceSum(undefined, 1)).toThrow(
      /sparse\.reduceSum: options must be an object such as \{ axis: … \}, got 1/,
    );
    expect(() => api.reduceSum(undefined, [1])).toThrow(TypeError);
    expect(() => api.reduceSum(undefined, {}, { keepdims: true })).toThrow(
      /sparse\.reduceSum: the optional arguments go in one options object, the last argument; got 1 more after it/,
    );
  });
});

describe('the misspellings of the issue', () => {
  const st = () =>
    new SparseTensor(
      [
        [0, 0],
        [1, 2],
      ],
      [1, 2],
      [2, 3],
    );

  it('reduceSum with axes (the argument is axis) is refused, not a sum over every axis', () => {
    expect(() => sparse.reduceSum(st(), { axes: 1 } as never)).toThrow(
      "sparse.reduceSum: unknown option 'axes'; the options are axis, reductionAxes, keepdims, keepDims",
    );
    expect(sparse.reduceSum(st(), { axis: 1 }).toArray()).toEqual([1, 2]);
  });

  it("toDense with TensorFlow's snake_case default_value is refused and points to defaultValue", () => {
    expect(() => sparse.toDense(st(), { default_value: 9 } as never)).toThrow(
      "sparse.tensorToDense: unknown option 'default_value' (did you mean 'defaultValue'?); the options are defaultValue, validateIndices",
    );
    expect(sparse.toDense(st(), { defaultValue: 9 }).toArray()).toEqual([
      [1, 9, 9],
      [9, 9, 2],
    ]);
  });

  it('the aliases the specs declare are honoured', async () => {
    const rt = await createRuntime();
    expect(rt.sparse.reduceSum(st(), { reductionAxes: 1, keepDims: true }).shape).toEqual([2, 1]);
  });
});
