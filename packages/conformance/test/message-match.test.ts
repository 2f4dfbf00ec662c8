import { describe, expect, it } from 'vitest';
import { messageMatches } from '../src/message-match.js';

describe('messageMatches', () => {
  it('finds a literal pattern anywhere, its escaped punctuation standing for itself', () => {
    const message = 'SparseTensor: indices[1] = [0,0] is out of order';
    expect(messageMatches('indices\\[1\\] = \\[0,0\\] is out of order', message)).toBe(true);
    expect(messageMatches('indices\\[2\\]', message)).toBe(false);
    expect(messageMatches('', message)).toBe(true);
  });

  it('reads a pattern as JavaScript does where RE2 can: any character, alternation, classes, anchors', () => {
    expect(messageMatches('sp_inputs\\[1\\].indices', 'sp_inputs[1]_indices')).toBe(true);
    expect(messageMatches('broadcast|shape', 'the shapes differ')).toBe(true);
    expect(messageMatches('^\\d+ vs\\. \\d+$', '3 vs. 4')).toBe(true);
    expect(messageMatches('^vs', '3 vs. 4')).toBe(false);
    expect(messageMatches('a/b', 'a/b')).toBe(true);
  });

  it('takes linear time where a backtracking RegExp would take exponential', () => {
    const started = performance.now();
    expect(messageMatches('(a+)+$', `'${'a'.repeat(100_000)}'`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('throws for what RE2 does not read: lookaround, backreferences', () => {
    expect(() => messageMatches('(?=a)', 'a')).toThrow();
    expect(() => messageMatches('(a)\\1', 'aa')).toThrow();
  });
});
