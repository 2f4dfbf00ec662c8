import { format } from 'prettier';
import { describe, expect, it } from 'vitest';
import * as assemblyScript from '../tools/prettier-plugin-assemblyscript.mjs';

// The AssemblyScript kernels are formatted through tools/prettier-plugin-assemblyscript.mjs: their decorators on
// functions, which Prettier's TypeScript parser refuses, come out as they went in, where they were.

const asFormat = (source: string) =>
  format(source, { parser: 'assemblyscript', plugins: [assemblyScript], printWidth: 120, singleQuote: true });

describe('Prettier on AssemblyScript', () => {
  it('keeps a decorator on the line of its function, or on a line of its own, with its arguments', async () => {
    const source = [
      '/** Doubles. */',
      '@inline function twice(x: i32): i32 {',
      '  return x << 1;',
      '}',
      '',
      '@inline',
      'export function load2(p: usize): i32 {',
      '  return load<i32>(p) + unchecked(twice(1));',
      '}',
      '',
      '@external("env", "log")',
      'declare function log(x: i32): void;',
      '',
    ].join('\n');
    expect(await asFormat(source)).toBe(source);
  });

  it('formats the code around the decorators as Prettier does TypeScript', async () => {
    expect(await asFormat('@inline   function f(a:i32,b:i32):i32{return a+b}\n')).toBe(
      '@inline function f(a: i32, b: i32): i32 {\n  return a + b;\n}\n',
    );
  });

  it('refuses a decorator on a function without the plugin, which is why it exists', async () => {
    await expect(format('@inline function f(): void {}\n', { parser: 'typescript' })).rejects.toThrow(
      /Decorators are not valid here/,
    );
  });
});
