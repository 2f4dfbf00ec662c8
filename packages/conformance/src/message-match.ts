import { RE2JS } from 're2js';

/**
 * A pattern made only of plain characters and escaped punctuation (`indices\[1\] = \[0,0\]`, as most are) means the
 * text it spells, in RE2 as in JavaScript. The alternatives here are disjoint, so this check is linear itself.
 */
const LITERAL = /^(?:[^\\.^$*+?()[\]{}|]|\\[^A-Za-z0-9])*$/;

/** Compiling is most of RE2's cost, and a pattern recurs on every backend. */
const compiled = new Map<string, RE2JS>();

/**
 * Whether an error message contains a match of an `expect_error.match` pattern. The pattern is matched by RE2,
 * in time linear in the message, so that no pattern can hang a run (`^(a+)+$` against a long message of a's
 * takes a backtracking RegExp time exponential in its length); a literal one is simply looked for. RE2 reads
 * JavaScript's syntax less lookaround and backreferences; for a pattern it refuses, this throws RE2's reason.
 */
export function messageMatches(pattern: string, message: string): boolean {
  if (LITERAL.test(pattern)) return message.includes(pattern.replace(/\\(.)/g, '$1'));
  let re = compiled.get(pattern);
  if (re === undefined) compiled.set(pattern, (re = RE2JS.compile(RE2JS.translateRegExp(pattern))));
  return re.test(message);
}
