import { describe, expect, it } from 'vitest';
import { UnimplementedError, getOpInfo, listOps, vjp } from '../src/index.js';

const ops = listOps().map((id) => getOpInfo(id)!);
const forwardOf = new Map(ops.flatMap((o) => (o.gradient ? [[o.gradient.op, o.name] as const] : [])));
const refusal = (opId: string) => {
  try {
    vjp(opId, {}, []);
  } catch (e) {
    expect(e).toBeInstanceOf(UnimplementedError);
    return (e as Error).message;
  }
  throw new Error(`vjp of ${opId} did not refuse`);
};

describe('vjp of an op without a gradient says why', () => {
  it("gives TensorFlow's own reason where TensorFlow does not differentiate the op", () => {
    const declared = ops.filter((o) => o.notDifferentiable);
    expect(declared.map((o) => o.name)).toContain('sparse_concat');
    for (const o of declared) {
      expect(o.gradient, o.name).toBeUndefined();
      expect(refusal(o.name)).toBe(
        `vjp: ${o.name} has no gradient: TensorFlow declares it not differentiable: ${o.notDifferentiable}`,
      );
    }
    expect(getOpInfo('sparse_concat')!.notDifferentiable).toMatch(/NotDifferentiable\("SparseConcat"\)/);
  });

  it('names the op whose gradient a gradient op is', () => {
    expect(forwardOf.get('sparse_softmax_grad')).toBe('sparse_softmax');
    for (const [grad, forward] of forwardOf)
      if (!getOpInfo(grad)!.gradient && !getOpInfo(grad)!.notDifferentiable)
        expect(refusal(grad)).toBe(`vjp: ${grad} has no gradient: it is the gradient op of ${forward}`);
  });

  it('says where TensorFlow has a gradient that this library lacks', () => {
    const missing = ops.filter((o) => !o.gradient && !o.notDifferentiable && !forwardOf.has(o.name));
    for (const o of missing) {
      const where = o.tensorflow?.gradient ? ` (${o.tensorflow.gradient})` : '';
      expect(refusal(o.name)).toBe(
        `vjp: ${o.name} has no gradient here yet, although TensorFlow differentiates it${where}`,
      );
    }
  });
});
