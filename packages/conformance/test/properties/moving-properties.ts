import type { Property } from './family-properties.js';

/** Properties of the moving ops against a dense oracle (see family-properties.ts for the pattern). */
export const MOVING_PROPERTIES: Property[] = [];
