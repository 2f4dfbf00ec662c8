import type { LoadedSpec } from '@sparse/codegen';
import { cwiseOracle } from './cwise-oracle.js';
import { mapOracle } from './map-oracle.js';
import { mergeOracle } from './merge-oracle.js';
import { reduceOracle } from './reduce-oracle.js';
import type { CompiledKernel } from './expr-interpreter.js';
import type { Property } from './property.js';

const BY_FAMILY: Record<CompiledKernel['family'], (spec: LoadedSpec, kernel: CompiledKernel) => Property> = {
  cwise: cwiseOracle,
  merge: mergeOracle,
  reduce: reduceOracle,
  map: mapOracle,
};

/** The dense oracle of an expression-family op, made from its spec's expressions; undefined for a hand-written op. */
export function expressionOracle(spec: LoadedSpec): Property | undefined {
  return spec.compiled && BY_FAMILY[spec.compiled.family](spec, spec.compiled);
}
