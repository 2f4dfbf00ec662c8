import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCliOptions } from '../src/cli-options.js';
import { loadCases } from '../src/load-cases.js';
import { MAX_NESTING } from '../src/nesting-limit.js';
import { isUnreadable } from '../src/unreadable-case.js';

// The limits behind sparse-conformance's --cases, on the loader the command's runner process calls: what
// cli-gate.test.ts checks through the command, here for the forms that cost too much to run one command each.

const dir = mkdtempSync(join(tmpdir(), 'sparse-conformance-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('did not throw');
}

const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const yamlCase = (name: string, args: string) =>
  `- op: sparse_tensor_to_dense\n  name: ${name}\n  args: ${args}\n  expect_error: {kind: TypeError}\n`;
const limitText = `a case file may nest lists and maps at most ${MAX_NESTING} deep`;

describe('the nesting limit', () => {
  it('takes a dense tensor of rank 254, written out nested, in JSON and YAML', () => {
    const dense = `{dense: ${nested(254)}, dtype: int32}`;
    const yaml = write(
      'rank254.yaml',
      `- op: from_dense\n  name: r\n  args: {tensor: ${dense}}\n  expect: {output: ${dense}}\n`,
    );
    const json = write(
      'rank254.json',
      JSON.stringify([
        {
          op: 'from_dense',
          name: 'r',
          args: { tensor: { dense: JSON.parse(nested(254)), dtype: 'int32' } },
          expect_error: { kind: 'TypeError' },
        },
      ]),
    );
    for (const file of [yaml, json]) expect(loadCases(file).map(isUnreadable)).toEqual([false]);
  });

  it('counts from the file: one level more than the limit is refused, naming the place', () => {
    // The list of cases, the case and its args are 3 levels; the value, the rest.
    const at = write(
      'at-limit.json',
      JSON.stringify([
        { op: 'x', name: 'a', args: { a: JSON.parse(nested(MAX_NESTING - 3)) }, expect_error: { kind: 'TypeError' } },
      ]),
    );
    expect(loadCases(at)).toHaveLength(1);
    const past = write('past-limit.yaml', yamlCase('a', `{a: ${nested(MAX_NESTING - 2)}}`));
    expect(errorOf(() => loadCases(past)).message).toBe(
      `${past}: nested ${MAX_NESTING + 1} deep (line 3, column ${'  args: {a: '.length + MAX_NESTING - 2}); ${limitText}`,
    );
  });

  it('sees block nesting as well as flow nesting, and brackets in strings and comments not at all', () => {
    const block = write(
      'block.yaml',
      `- op: x\n  name: a\n  args:\n    a:\n      ${'- '.repeat(1000)}1\n  expect_error: {kind: TypeError}\n`,
    );
    expect(errorOf(() => loadCases(block)).message).toMatch(new RegExp(`^${block}: nested 1003 deep \\(line 5, `));
    const brackets = '[[[[{{{{'.repeat(100);
    const yaml = write('strings.yaml', `# ${brackets}\n${yamlCase('a', `{a: '${brackets}', b: "${brackets}\\"]]"}`)}`);
    const json = write(
      'strings.json',
      JSON.stringify([{ op: 'x', name: `${brackets}\\"`, args: {}, expect_error: { kind: 'TypeError' } }]),
    );
    for (const file of [yaml, json]) expect(loadCases(file)).toHaveLength(1);
  });

  it('follows YAML aliases: a value nested past the limit through them, or holding itself, is refused', () => {
    const deep = write(
      'alias-deep.yaml',
      yamlCase('anchor', `{a: &deep ${nested(200)}}`) + yamlCase('alias', `{a: ${nested(200, '*deep')}}`),
    );
    expect(errorOf(() => loadCases(deep)).message).toBe(
      `${deep}: nested more than ${MAX_NESTING} deep through its aliases; ${limitText}`,
    );
    const cycle = write('alias-cycle.yaml', yamlCase('cycle', '{a: &self [*self]}'));
    expect(errorOf(() => loadCases(cycle)).message).toBe(
      `${cycle}: an alias refers to a node that holds it, so it nests without end: refused`,
    );
    // Shared, not nested: an anchor used many times is measured once.
    const shared = write(
      'alias-shared.yaml',
      yamlCase('anchor', `{a: &v ${nested(100)}}`) + yamlCase('uses', `{a: [${Array(50).fill('*v').join(', ')}]}`),
    );
    expect(loadCases(shared)).toHaveLength(2);
  });
});

describe('what a case file may be', () => {
  it.skipIf(process.platform === 'win32')(
    'refuses a FIFO, a device and a folder link to itself, by name, without waiting',
    () => {
      const fifo = join(dir, 'fifo/never-written.yaml');
      mkdirSync(join(dir, 'fifo'));
      execFileSync('mkfifo', [fifo]);
      expect(errorOf(() => loadCases(fifo)).message).toBe(`${fifo}: not a regular file (a FIFO): refused`);
      // In a folder as well: listed, so that it is refused rather than left out.
      expect(errorOf(() => loadCases(join(dir, 'fifo'))).message).toBe(`${fifo}: not a regular file (a FIFO): refused`);
      const zero = join(dir, 'zero.json');
      symlinkSync('/dev/zero', zero);
      expect(errorOf(() => loadCases(zero)).message).toBe(`${zero}: not a regular file (a character device): refused`);
      mkdirSync(join(dir, 'loop/inner'), { recursive: true });
      symlinkSync(join(dir, 'loop'), join(dir, 'loop/inner/back'));
      expect(errorOf(() => loadCases(join(dir, 'loop'))).message).toBe(
        `${join(dir, 'loop/inner/back')}: a symbolic link back to ${join(dir, 'loop')}, a folder it is in`,
      );
      // Two ways to one folder: read once, the other refused (links to links could otherwise multiply the walk).
      write('diamond/real/a.json', '[]');
      symlinkSync(join(dir, 'diamond/real'), join(dir, 'diamond/z-link'));
      expect(errorOf(() => loadCases(join(dir, 'diamond'))).message).toBe(
        `${join(dir, 'diamond/z-link')}: a symbolic link to ${join(dir, 'diamond/real')}, a folder read already as ${join(dir, 'diamond/real')}`,
      );
    },
  );

  it.skipIf(process.platform !== 'linux')('holds the byte limit while reading a file whose size says 0 (/proc)', () => {
    const maps = join(dir, 'maps.yaml');
    symlinkSync('/proc/self/maps', maps);
    expect(errorOf(() => loadCases(maps, { maxFileBytes: 64 })).message).toBe(
      `${maps}: holds more than 64 bytes; a case file may hold at most 64 bytes (--max-file-bytes)`,
    );
  });
});

describe('the size options', () => {
  const sizeOf = (option: string, given: string) => readCliOptions(['--cases', 'x.json', option, given]);

  it('take bytes, KiB, MiB or GiB', () => {
    expect(sizeOf('--max-bytes', '512MiB')).toMatchObject({ maxBytes: 512 * 2 ** 20 });
    expect(sizeOf('--max-file-bytes', '1048576')).toMatchObject({ maxFileBytes: 2 ** 20 });
    expect(sizeOf('--max-bytes', '2GiB')).toMatchObject({ maxBytes: 2 ** 31 });
    expect(sizeOf('--max-file-bytes', '3KiB')).toMatchObject({ maxFileBytes: 3072 });
  });

  it('call anything else bad usage, naming the option', () => {
    for (const option of ['--max-bytes', '--max-file-bytes'])
      for (const given of ['0', '1.5GiB', '2GB', 'lots', '9007199254740993'])
        expect(sizeOf(option, given)).toEqual({
          usageError: `${option}: expected a whole number of bytes from 1, optionally followed by KiB, MiB or GiB, got '${given}'`,
        });
  });

  it('default to 64 MiB a file, and a budget of 1 GiB or a quarter of the memory, not the runtime default', () => {
    expect(readCliOptions(['--cases', 'x.json'])).toMatchObject({
      maxFileBytes: 64 * 2 ** 20,
      maxBytes: Math.min(2 ** 30, Math.floor(totalmem() / 4)),
      allowEmpty: false,
    });
  });
});
