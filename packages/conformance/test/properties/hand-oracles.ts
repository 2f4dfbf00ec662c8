import { CROSS_PROPERTIES } from './cross-properties.js';
import { MATH_PROPERTIES } from './math-properties.js';
import { MOVING_PROPERTIES } from './moving-properties.js';
import type { Property } from './property.js';
import { RESHAPING_PROPERTIES } from './reshaping-properties.js';

/** The dense oracles written by hand for hand-written ops (structural, matmul), by op id. */
export const HAND_ORACLES: ReadonlyMap<string, Property> = new Map(
  [...RESHAPING_PROPERTIES, ...MOVING_PROPERTIES, ...MATH_PROPERTIES, ...CROSS_PROPERTIES].map((p) => [p.op, p]),
);
