// Prettier for AssemblyScript: the `assemblyscript` parser. Prettier's TypeScript parser refuses a decorator on a
// function (`@inline function f…`), which AssemblyScript takes; so each decorator at the start of a line goes
// through Prettier as a block comment and is printed back as the decorator it was, where it was.
import typescript from 'prettier/plugins/typescript';
import estree from 'prettier/plugins/estree';

const MARK = 'assemblyscript-decorator ';
const DECORATOR = /^([ \t]*)(@[A-Za-z_$][\w$]*(?:\([^)\n]*\))?)(?=\s)/gm;

/** The source with every line-leading decorator turned into a marked block comment. */
export function decoratorsAsComments(text) {
  return text.replace(DECORATOR, (_, indent, decorator) => `${indent}/*${MARK}${decorator}*/`);
}

const estreePrinter = estree.printers.estree;

export const parsers = {
  assemblyscript: {
    ...typescript.parsers.typescript,
    astFormat: 'assemblyscript-estree',
    preprocess: (text, options) => {
      const pre = typescript.parsers.typescript.preprocess;
      return decoratorsAsComments(pre ? pre(text, options) : text);
    },
  },
};

export const printers = {
  'assemblyscript-estree': {
    ...estreePrinter,
    printComment(path, options) {
      const { value } = path.node;
      return value.startsWith(MARK) ? value.slice(MARK.length) : estreePrinter.printComment(path, options);
    },
  },
};
