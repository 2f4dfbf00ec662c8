import { readFileSync } from 'node:fs';
import { tsHeader } from './header.js';

/**
 * A source file the generator also runs, copied into a package (the support functions generated expressions
 * call); `imports` maps the module specifiers that differ there.
 */
export function emitSourceCopy(sourcePath: string, imports: Record<string, string> = {}): string {
  let text = readFileSync(sourcePath, 'utf8');
  for (const [from, to] of Object.entries(imports)) {
    const quoted = `from '${from}';`;
    if (!text.includes(quoted)) throw new Error(`${sourcePath} has no import from '${from}' to point at '${to}'`);
    text = text.replaceAll(quoted, `from '${to}';`);
  }
  return tsHeader + text;
}
