import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isRecord, problemText, validateCase } from '@sparse/case-format';
import { parse as parseYaml } from 'yaml';
import { CaseFormatError } from './case-format-error.js';
import { isUnreadable, unreadableCase, type LoadedCase } from './unreadable-case.js';

export const CASE_FILE_EXTENSIONS = ['.yaml', '.yml', '.json'];

const isCaseFile = (path: string) => CASE_FILE_EXTENSIONS.includes(extname(path).toLowerCase());

export interface LoadCasesOptions {
  /** Told of each case file before it is read and parsed (so a watcher knows which one a stuck load is on). */
  onFile?: (file: string) => void;
}

/**
 * Loads the cases of a case file, or of every case file under a directory (recursively, in sorted path order).
 * An entry that does not follow docs/cases.md, or repeats an op/name pair, is loaded as an UnreadableCase in its
 * place. Throws a CaseFormatError naming the file for a path, or a file, that cannot be read as a list of cases.
 */
export function loadCases(path: string, { onFile }: LoadCasesOptions = {}): LoadedCase[] {
  let files: string[];
  if (readable(path, () => statSync(path).isDirectory())) {
    files = readable(path, () => caseFilesUnder(path));
  } else {
    if (!isCaseFile(path))
      throw new CaseFormatError(path, `not a case file: the name must end in ${CASE_FILE_EXTENSIONS.join(', ')}`);
    files = [path];
  }
  const cases: LoadedCase[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    onFile?.(file);
    for (const [index, c] of parseCaseFile(
      readable(file, () => readFileSync(file, 'utf8')),
      file,
    ).entries()) {
      const key = isUnreadable(c) ? undefined : `${c.op}/${c.name}`;
      const first = key === undefined ? undefined : seen.get(key);
      if (first === undefined) {
        if (key !== undefined) seen.set(key, file);
        cases.push(c);
      } else {
        const problem = `${key} is already a case in ${first}: names must be unique within an op`;
        cases.push(unreadableCase(c, file, index, problem));
      }
    }
  }
  return cases;
}

/**
 * Parses and validates the text of a case file; `file` picks the format by extension and names the file in errors.
 * Each entry that is not a case comes back as an UnreadableCase; a text that is not a list of cases throws.
 */
export function parseCaseFile(text: string, file: string): LoadedCase[] {
  let doc: unknown;
  try {
    doc = extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new CaseFormatError(file, `cannot parse: ${(e as Error).message}`);
  }
  // The generated bundle wraps its cases with other fields (`generated`), so only `cases` is required there.
  const list = isRecord(doc) ? doc.cases : doc;
  if (!Array.isArray(list)) throw new CaseFormatError(file, 'expected a list of cases, or {cases: [...]}');
  return list.map((raw: unknown, index) => {
    const problems: string[] = [];
    if (validateCase(raw, (path, message) => problems.push(problemText(path, message)))) return raw;
    return unreadableCase(raw, file, index, problems.join('; '));
  });
}

/** What `read` gives, or a CaseFormatError saying why `path` cannot be read (missing, a folder of no access…). */
function readable<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw new CaseFormatError(path, `cannot read: ${(e as Error).message}`);
  }
}

/** Case files under a directory, recursively, sorted by path; dot-entries (.git, editor files) are skipped. */
function caseFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && isCaseFile(p)) out.push(p);
    }
  };
  walk(dir);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
