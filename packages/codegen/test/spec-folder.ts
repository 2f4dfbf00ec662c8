import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SPECS = join(import.meta.dirname, '../../../specs');

/**
 * Writes one spec into a test's specs folder, beside the gradient op spec it names (`gradient: op:`), which
 * codegen needs to load it.
 */
export function writeSpec(dir: string, file: string, yaml: string): void {
  writeFileSync(join(dir, file), yaml);
  const gradient = /^gradient:.*\n(?: {2}.*\n)*? {2}op: ([a-z0-9_]+)/m.exec(yaml)?.[1];
  if (gradient && `${gradient}.yaml` !== file)
    copyFileSync(join(SPECS, `${gradient}.yaml`), join(dir, `${gradient}.yaml`));
}
