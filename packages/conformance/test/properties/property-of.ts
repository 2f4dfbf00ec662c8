import type { LoadedSpec } from '@sparse/codegen';
import { expressionOracle } from './expression-oracle.js';
import { HAND_ORACLES } from './hand-oracles.js';
import type { Property } from './property.js';
import { referenceAgreement } from './reference-agreement.js';

/**
 * The property an op is tested by, from its spec alone: an expression-family op gets a dense oracle made from its
 * expressions; a hand-written op its hand-written oracle where there is one; any other op agreement with the
 * reference backend and the spec's invariants.
 */
export function propertyOf(spec: LoadedSpec): Property {
  return expressionOracle(spec) ?? HAND_ORACLES.get(spec.name) ?? referenceAgreement(spec);
}
