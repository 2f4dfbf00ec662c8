import { join } from 'node:path';
import { loadSpecs, type LoadedSpec } from '@sparse/codegen';

/** Every op spec of the repository (specs/*.yaml), validated and with its kernel expressions parsed, by codegen. */
export const SPECS: readonly LoadedSpec[] = loadSpecs(join(import.meta.dirname, '../../../../specs'));
