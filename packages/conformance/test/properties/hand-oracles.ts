import { EMBEDDING_PROPERTIES } from './embedding-properties.js';
import { BINCOUNT_PROPERTY } from './bincount-property.js';
import { EYE_PROPERTY } from './eye-property.js';
import { CROSS_PROPERTIES } from './cross-properties.js';
import { MATH_PROPERTIES } from './math-properties.js';
import { MOVING_PROPERTIES } from './moving-properties.js';
import type { Property } from './property.js';
import { RESHAPING_PROPERTIES } from './reshaping-properties.js';
import { SEGMENT_PROPERTIES } from './segment-properties.js';
import { CSR_PROPERTIES } from './csr-properties.js';

/** The dense oracles written by hand for hand-written ops (structural, matmul), by op id. */
export const HAND_ORACLES: ReadonlyMap<string, Property> = new Map(
  [
    ...RESHAPING_PROPERTIES,
    ...MOVING_PROPERTIES,
    ...MATH_PROPERTIES,
    ...SEGMENT_PROPERTIES,
    ...EMBEDDING_PROPERTIES,
    EYE_PROPERTY,
    BINCOUNT_PROPERTY,
    ...CSR_PROPERTIES,
    ...CROSS_PROPERTIES,
  ].map((p) => [p.op, p]),
);
