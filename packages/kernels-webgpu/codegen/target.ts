import { join } from 'node:path';
import type { TargetDeclaration } from '@sparse/codegen/backend-kit';
import { emitWebGpuFamilies } from './emit-families.js';
import { emitWebGpuGradients, webGpuGeneratesGradient } from './emit-gradients.js';

/**
 * The webgpu backend, as codegen reads it. WGSL computes f32 and i32: an expression-family op is generated where it
 * allows either, and the derived gradients of the map, cwise, merge and reduce ops in float32. Everything without
 * a kernel file runs on the JS kernels here, reported as delegated.
 */
export const target: TargetDeclaration = {
  name: 'webgpu',
  package: '@sparse/kernels-webgpu',
  factory: 'createWebGpuBackend',
  generates: (s) =>
    (s.compiled?.dtypes.some((d) => d === 'float32' || d === 'int32') ?? false) || webGpuGeneratesGradient(s),
  unported: 'js',
  outputs: (specs, packageDir) => ({
    'src/generated/families.ts': emitWebGpuFamilies(specs, join(packageDir, 'codegen/templates/families.ts.hbs')),
    'src/generated/gradients.ts': emitWebGpuGradients(specs, join(packageDir, 'codegen/templates/gradients.ts.hbs')),
  }),
};
