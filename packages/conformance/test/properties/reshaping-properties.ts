import type { Property } from './family-properties.js';

/** Properties of the reshaping ops against a dense oracle (see family-properties.ts for the pattern). */
export const RESHAPING_PROPERTIES: Property[] = [];
