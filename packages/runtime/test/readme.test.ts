import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

// The README's usage example runs as written, and prints what its comments say.
it('the README usage example runs and prints what its comments promise', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const code = /## Use\n\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(code, 'README has a ```js block under "## Use"').toBeTruthy();
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code!], { cwd: ROOT, encoding: 'utf8' });
  const printed = out.trim().split('\n').map(squash);
  const promised = [...code!.matchAll(/console\.log\(.*\/\/ (.*)$/gm)].map((m) => m[1]);
  expect(printed.length).toBe(promised.length);
  promised.forEach((want, i) => {
    const w = squash(want);
    if (w.endsWith('…')) expect(printed[i].startsWith(w.slice(0, -1))).toBe(true);
    else expect(printed[i]).toBe(w);
  });
});

// util.inspect spacing and typed-array lengths aside, the printed value must be the promised one.
function squash(s: string): string {
  return s.replace(/\s+/g, '').replace(/^(\w+Array)\(\d+\)/, '$1');
}

// `npm run demo`, the main job of the README's set-up, runs and shows what it promises.
it('the demo runs on the default backend and prints its results', () => {
  const out = execFileSync(process.execPath, [join(ROOT, 'tools/demo.mjs')], { cwd: ROOT, encoding: 'utf8' });
  expect(out).toMatch(/^backend: wasm$/m);
  expect(out).toMatch(
    /reorder: +SparseTensor\(indices=\[\[0, 1\], \[0, 3\], \[2, 0\], \[3, 1\]\], values=\["a", "b", "c", "d"\]/,
  );
  expect(out).toMatch(/to dense: +\[\["\.","a","\.","b","\."\]/);
  expect(out).toMatch(/x \+ dense: +\[\[2,1,1,1\],\[1,1,3,1\],\[1,1,1,1\]\]/);
});
