import type { LoadedSpec } from '@sparse/codegen';
import { createRuntime } from '@sparse/runtime';
import { compareOutput, resultView, type Case, type CaseRuntime } from '../../src/index.js';
import { mutatedExampleArb } from './example-mutations.js';
import { outputProblems } from './output-invariants.js';
import type { Property } from './property.js';
import { outcome, told } from './run-outcome.js';

// The property every op has, oracle or not: on random arguments made from its examples, each backend computes what
// the reference backend (js) computes, or refuses what it refuses, and its outputs are as the spec says they are.

let reference: Promise<CaseRuntime> | undefined;

/** '' if `rt` agrees with the reference backend on the case and its outputs hold the spec's invariants. */
async function agrees(spec: LoadedSpec, rt: CaseRuntime, c: Case): Promise<string> {
  reference ??= createRuntime({ backend: 'js' });
  const want = await outcome(await reference, c);
  const got = await outcome(rt, c);
  if ('threw' in got) return `threw ${got.threw}`;
  if ('threw' in want) return `the reference backend threw ${want.threw}`;
  if ('refused' in want || 'refused' in got) {
    const same = 'refused' in want && 'refused' in got && want.refused === got.refused;
    return same ? '' : `the reference backend ${told(want)}, ${rt.backend} ${told(got)}`;
  }
  const differences = spec.outputs.map((o) => {
    const view = resultView(want.outputs[o.name]);
    if ('unrecognized' in view) return `the reference backend's ${o.name} is ${view.unrecognized}`;
    return compareOutput(got.outputs[o.name], view, o.name);
  });
  return [...differences.filter(Boolean), ...outputProblems(spec, c, got.outputs)].join('; ');
}

/** Agreement with the reference backend and the spec's invariants, on arguments made from the op's examples. */
export function referenceAgreement(spec: LoadedSpec): Property {
  return {
    op: spec.name,
    against: "the js backend and the spec's invariants",
    cases: mutatedExampleArb(spec),
    check: (rt, c) => agrees(spec, rt, c),
  };
}
