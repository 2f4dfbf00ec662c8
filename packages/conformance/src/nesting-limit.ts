import { LineCounter, Parser, type CST } from 'yaml';
import { CaseFormatError } from './case-format-error.js';

/**
 * How deep the lists and maps of a case file may nest: room for a dense tensor of TensorFlow's greatest rank (254)
 * written out nested inside its case, and far below the depth at which the YAML parser, the case validator or the
 * runtime's nested-list reader would run out of stack (about 800 levels): a file past it is refused whole, with
 * its depth, before any of them sees it.
 */
export const MAX_NESTING = 300;

const limitText = `a case file may nest lists and maps at most ${MAX_NESTING} deep`;

/** Refuses JSON text nested past MAX_NESTING; a linear scan of the text, so nothing deep is ever built. */
export function checkJsonNesting(text: string, file: string): void {
  let depth = 0;
  let deepest = { depth: 0, offset: 0 };
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i++;
      else if (ch === 0x22 /* " */) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) {
      if (++depth > deepest.depth) deepest = { depth, offset: i };
    } else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) depth--;
  }
  if (deepest.depth > MAX_NESTING) throw tooDeep(file, deepest.depth, position(text, deepest.offset));
}

/**
 * Refuses YAML text nested past MAX_NESTING, in flow (`[[…]]`) or block form, from the parser's syntax tree (built
 * without recursion) before anything is composed from it. Says whether the text has aliases, whose values can nest
 * deeper than the text (`checkValueNesting` then looks at the composed value).
 */
export function checkYamlNesting(text: string, file: string): { hasAliases: boolean } {
  const lines = new LineCounter();
  const stack: { token: CST.Token | undefined; depth: number }[] = [];
  for (const token of new Parser(lines.addNewLine).parse(text)) stack.push({ token, depth: 0 });
  let deepest = { depth: 0, offset: 0 };
  let hasAliases = false;
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { token, depth } = top;
    if (token === undefined) continue;
    if (token.type === 'document') stack.push({ token: token.value, depth });
    else if (token.type === 'alias') hasAliases = true;
    else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth + 1 > deepest.depth) deepest = { depth: depth + 1, offset: token.offset };
      for (const item of token.items)
        for (const child of ['key' in item ? item.key : undefined, item.value])
          stack.push({ token: child ?? undefined, depth: depth + 1 });
    }
  }
  if (deepest.depth > MAX_NESTING) {
    const { line, col } = lines.linePos(deepest.offset);
    throw tooDeep(file, deepest.depth, `line ${line}, column ${col}`);
  }
  return { hasAliases };
}

/**
 * Refuses a parsed value nested past MAX_NESTING, or holding itself (a YAML alias inside its own anchor), without
 * recursion; a value reached by several aliases is measured once, so this is linear in the distinct nodes.
 */
export function checkValueNesting(root: unknown, file: string): void {
  const depthOf = new Map<object, number>();
  const onPath = new Set<object>();
  const frames: { node: object; children: object[]; next: number; depth: number }[] = [];
  const enter = (node: object) => {
    onPath.add(node);
    const values = Array.isArray(node) ? node : Object.values(node);
    frames.push({ node, children: values.filter(isNode), next: 0, depth: 1 });
  };
  if (isNode(root)) enter(root);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1];
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next++];
      const known = depthOf.get(child);
      if (known !== undefined) frame.depth = Math.max(frame.depth, known + 1);
      else if (onPath.has(child))
        throw new CaseFormatError(file, 'an alias refers to a node that holds it, so it nests without end: refused');
      else enter(child);
      continue;
    }
    frames.pop();
    onPath.delete(frame.node);
    depthOf.set(frame.node, frame.depth);
    if (frame.depth > MAX_NESTING)
      throw new CaseFormatError(file, `nested more than ${MAX_NESTING} deep through its aliases; ${limitText}`);
    const parent = frames[frames.length - 1];
    if (parent !== undefined) parent.depth = Math.max(parent.depth, frame.depth + 1);
  }
}

const isNode = (x: unknown): x is object => typeof x === 'object' && x !== null;

const tooDeep = (file: string, depth: number, where: string) =>
  new CaseFormatError(file, `nested ${depth} deep (${where}); ${limitText}`);

/** `line L, column C` (from 1) of an offset in `text`. */
function position(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}
