export { loadSpecs } from './load-specs.js';
export { generate, generatedFiles, type GenerateOptions } from './generate.js';
export { SpecError, formatProblem, type SpecProblem } from './spec-error.js';
export { apiNameOf, camelCase, pascalCase } from './naming.js';
export type * from './spec-types.js';
