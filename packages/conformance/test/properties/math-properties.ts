import type { Property } from './family-properties.js';

/** Properties of the math ops against a dense oracle (see family-properties.ts for the pattern). */
export const MATH_PROPERTIES: Property[] = [];
