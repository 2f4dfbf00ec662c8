// What a backend's code generator (packages/<backend>/codegen/target.ts) builds on: the target it declares, the
// validated specs, the expression IR of the kernel families and their gradients, and the lowerings every backend
// shares (JS for host-side steps, float32 magnitudes for the host's screening of subnormal steps).
export type { TargetDeclaration } from './backend-target.js';
export type { DTypeName, LoadedSpec } from './spec-types.js';
export type { Expr, FunctionName } from './expr/ast.js';
export { wholeLiteral } from './expr/ast.js';
export type { CompiledKernel, ExprField } from './expr/family.js';
export { UPSTREAM, type DerivedGradient, type VjpField } from './gradient-specs.js';
export { variablesOf } from './expr/variables.js';
export { selectsValue } from './expr/selection.js';
export { emitJs } from './expr/emit-js.js';
export { emitMagnitude } from './expr/emit-magnitude.js';
export { boundFunctions } from './bound-functions.js';
export { tsHeader } from './header.js';
export { compileTemplate } from './template.js';
