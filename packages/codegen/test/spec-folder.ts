import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { loadSpecs } from '../src/index.js';

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

/**
 * A loader of one of the repository's specs, edited, alone in a folder of the test's own (emptied before each
 * load, removed after the file's tests).
 */
export function editedSpecLoader(): (file: string, edit: (yaml: string) => string) => ReturnType<typeof loadSpecs> {
  const dir = mkdtempSync(join(tmpdir(), 'specs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (file, edit) => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    writeSpec(dir, file, edit(readFileSync(join(SPECS, file), 'utf8')));
    return loadSpecs(dir, dir);
  };
}
