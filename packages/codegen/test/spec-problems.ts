import { expect } from 'vitest';
import { SpecError } from '../src/index.js';

/** The problems codegen reports when `run` refuses what it was given; fails the test if it was accepted. */
export function specProblems(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(SpecError);
    return (e as SpecError).message;
  }
  throw new Error('codegen accepted what it should have refused');
}
