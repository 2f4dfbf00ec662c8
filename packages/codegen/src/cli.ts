#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './generate.js';
import { SpecError } from './spec-error.js';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    specs: { type: 'string' },
    check: { type: 'boolean', default: false },
  },
});

function findRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json')) && existsSync(join(dir, 'specs'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no repository root (nx.json and specs/) above ${from}`);
  }
}

try {
  const root = values.root ? resolve(values.root) : findRoot(process.cwd());
  const changed = generate({ root, specsDir: values.specs && resolve(values.specs), check: values.check });
  if (values.check && changed.length) {
    console.error(`stale generated files (run npm run codegen):\n  ${changed.join('\n  ')}`);
    process.exit(1);
  }
  console.log(values.check ? 'generated files are up to date' : `codegen: ${changed.length} file(s) written`);
} catch (e) {
  if (e instanceof SpecError) {
    console.error(`codegen: the specs have ${e.problems.length} problem(s):\n${e.message}`);
    process.exit(1);
  }
  throw e;
}
