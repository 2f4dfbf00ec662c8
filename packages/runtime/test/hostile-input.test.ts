import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, SparseTensor, createRuntime } from '@sparse/runtime';

// Request bodies a few bytes long that only claim to be large, or nest deeper than any tensor: each is refused at
// once, with an error naming the op (or constructor), the argument and what was given; none may make the process
// allocate what the body claims, recurse without bound, or abort.

const ROOT = join(import.meta.dirname, '../../..');
const deep = (depth: number, leaf: string) => '['.repeat(depth) + leaf + ']'.repeat(depth);

/** Each hostile body: the op it goes to, the JSON, and the error it must get. */
const BODIES: { name: string; op: string; json: string; kind: 'TypeError' | 'InvalidArgumentError'; match: RegExp }[] =
  [
    {
      name: 'values claiming 10^9 entries (the 77 bytes of the issue)',
      op: 'sparse_reorder',
      json: '{"sp_input":{"indices":[],"values":{"length":1000000000},"dense_shape":[2]}}',
      kind: 'TypeError',
      match:
        /^sparse_reorder: sp_input\.values must be an array or a typed array, got an object claiming length 1000000000 \(not an array\)$/,
    },
    {
      name: 'values claiming length -1',
      op: 'sparse_reorder',
      json: '{"sp_input":{"indices":[],"values":{"length":-1},"dense_shape":[2]}}',
      kind: 'TypeError',
      match: /^sparse_reorder: sp_input\.values must be an array or a typed array, got an object claiming length -1/,
    },
    {
      name: 'indices claiming 10^9 entries',
      op: 'sparse_reorder',
      json: '{"sp_input":{"indices":{"length":1000000000},"values":[],"dense_shape":[2]}}',
      kind: 'TypeError',
      match: /^sparse_reorder: sp_input\.indices must be an array or a typed array, got an object claiming length/,
    },
    {
      name: 'a dense shape claiming 10^9 dims',
      op: 'sparse_reorder',
      json: '{"sp_input":{"indices":[],"values":[],"dense_shape":{"length":1000000000}}}',
      kind: 'TypeError',
      match: /^sparse_reorder: sp_input\.dense_shape must be a list of dims, got an object claiming length 1000000000/,
    },
    {
      name: 'a dense argument claiming 10^9 entries',
      op: 'sparse_segment_sum',
      json: '{"data":[[1]],"indices":{"length":1000000000},"segment_ids":[0]}',
      kind: 'TypeError',
      match: /^sparse_segment_sum: indices: cannot make a tensor of an object claiming length 1000000000/,
    },
    {
      name: 'a dense argument nested 10^5 deep',
      op: 'sparse_add',
      json: `{"a":{"indices":[[0]],"values":[1],"dense_shape":[1]},"b":${deep(1e5, '1')}}`,
      kind: 'InvalidArgumentError',
      match: /^sparse_add: b: the lists are nested more than 254 deep, the most dims a tensor has$/,
    },
    {
      name: 'values nested 10^5 deep',
      op: 'sparse_reorder',
      json: `{"sp_input":{"indices":[[0]],"values":${deep(1e5, '1')},"dense_shape":[1]}}`,
      kind: 'TypeError',
      match: /^sparse_reorder: sp_input\.values\[0\]: cannot make a tensor of an array of length 1$/,
    },
    {
      name: 'a dense shape nested 10^5 deep',
      op: 'sparse_reorder',
      json: `{"sp_input":{"indices":[],"values":[],"dense_shape":${deep(1e5, '1')}}}`,
      kind: 'TypeError',
      match: /^sparse_reorder: sp_input\.dense_shape\[0\] must be a whole number, got an array of length 1$/,
    },
    {
      name: 'a dense shape of 10^6 dims',
      op: 'sparse_reorder',
      json: `{"sp_input":{"indices":[],"values":[],"dense_shape":[${new Array(1e6).fill(1).join(',')}]}}`,
      kind: 'InvalidArgumentError',
      match: /^sparse_reorder: sp_input\.dense_shape has 1000000 dims; a tensor has at most 254$/,
    },
    {
      name: '10^6 values against no indices',
      op: 'sparse_reorder',
      json: `{"sp_input":{"indices":[],"values":[${new Array(1e6).fill(1).join(',')}],"dense_shape":[2]}}`,
      kind: 'InvalidArgumentError',
      match: /^sparse_reorder: sp_input\.indices holds 0 numbers; 1000000 values of rank 1 need 1000000/,
    },
    {
      name: 'more index rows than values',
      op: 'sparse_reorder',
      json: '{"sp_input":{"indices":[[0],[1],[1]],"values":[1],"dense_shape":[2]}}',
      kind: 'InvalidArgumentError',
      match: /^sparse_reorder: sp_input\.indices has 3 rows but values has 1 entries$/,
    },
    {
      name: 'an index tuple of the wrong rank',
      op: 'sparse_reorder',
      json: '{"sp_input":{"indices":[[0,0],[1]],"values":[1,2],"dense_shape":[2,2]}}',
      kind: 'InvalidArgumentError',
      match: /^sparse_reorder: sp_input\.indices\[1\] has 1 entries but dense_shape has rank 2$/,
    },
  ];

describe('hostile request bodies', () => {
  it.each(BODIES.map((b) => [b.name, b] as const))(
    '%s: refused before allocating, naming what it was',
    async (_, b) => {
      const rt = await createRuntime();
      const args = JSON.parse(b.json) as Record<string, unknown>;
      const before = allocated();
      let thrown: unknown;
      try {
        rt.run(b.op, args);
      } catch (e) {
        thrown = e;
      }
      // Refused before anything the size of what a body claims (10^9 elements, 10^6 dims) was allocated.
      expect(allocated() - before).toBeLessThan(64 * 2 ** 20);
      expect(thrown).toBeInstanceOf(b.kind === 'TypeError' ? TypeError : InvalidArgumentError);
      expect((thrown as Error).message).toMatch(b.match);
    },
  );

  it('SparseTensor.fromJSON refuses the 77-byte body the same way', () => {
    const body = JSON.parse('{"indices":[],"values":{"length":1000000000},"dense_shape":[2]}');
    expect(() => SparseTensor.fromJSON(body)).toThrow(
      /^SparseTensor\.fromJSON: values must be an array or a typed array, got an object claiming length 1000000000/,
    );
    expect(() => new SparseTensor([], body.values, [2])).toThrow(/^SparseTensor: values must be an array/);
  });

  it('none of them aborts a process with a 256 MB heap', () => {
    // The same bodies, on stdin, in a child process whose heap is too small for anything a body claims.
    const script = `
      import { readFileSync } from 'node:fs';
      import { createRuntime } from '@sparse/runtime';
      const rt = await createRuntime();
      const out = [];
      for (const [op, json] of JSON.parse(readFileSync(0, 'utf8'))) {
        try { rt.run(op, JSON.parse(json)); out.push('returned'); } catch (e) { out.push(e.name); }
      }
      console.log(JSON.stringify(out));
    `;
    const bodies = JSON.stringify(BODIES.map((b) => [b.op, b.json]));
    const stdout = execFileSync(process.execPath, ['--max-old-space-size=256', '--input-type=module', '-e', script], {
      cwd: ROOT,
      input: bodies,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toEqual(BODIES.map((b) => b.kind));
  });
});

/** The bytes of V8's heap and of array buffers in use now. */
function allocated(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
