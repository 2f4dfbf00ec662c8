import { readdirSync, realpathSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isRecord, problemText, validateCase } from '@sparse/case-format';
import { parse as parseYaml } from 'yaml';
import { CaseFormatError } from './case-format-error.js';
import { checkJsonNesting, checkValueNesting, checkYamlNesting } from './nesting-limit.js';
import { DEFAULT_MAX_FILE_BYTES, readCaseFile } from './read-case-file.js';
import { isUnreadable, unreadableCase, type LoadedCase } from './unreadable-case.js';

export const CASE_FILE_EXTENSIONS = ['.yaml', '.yml', '.json'];

const isCaseFile = (path: string) => CASE_FILE_EXTENSIONS.includes(extname(path).toLowerCase());

export interface LoadCasesOptions {
  /** Told of each case file before it is read and parsed (so a watcher knows which one a stuck load is on). */
  onFile?: (file: string) => void;
  /** The most bytes a case file may hold (default 64 MiB); one that holds more is refused, unread past that. */
  maxFileBytes?: number;
}

/**
 * Loads the cases of a case file, or of every case file under a directory (recursively, in sorted path order,
 * following symbolic links). An entry that does not follow docs/cases.md, or repeats an op/name pair, is loaded as
 * an UnreadableCase in its place. Throws a CaseFormatError naming the file for a path, or a file, that cannot be
 * read as a list of cases: one that is not a regular file, holds more than `maxFileBytes` or nests past
 * MAX_NESTING among them.
 */
export function loadCases(
  path: string,
  { onFile, maxFileBytes = DEFAULT_MAX_FILE_BYTES }: LoadCasesOptions = {},
): LoadedCase[] {
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
    for (const [index, c] of parseCaseFile(readCaseFile(file, maxFileBytes), file).entries()) {
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
  const json = extname(file).toLowerCase() === '.json';
  // Before parsing: the YAML parser itself runs out of stack on deep text, and the validator on deep values.
  const { hasAliases } = json ? (checkJsonNesting(text, file), { hasAliases: false }) : checkYamlNesting(text, file);
  let doc: unknown;
  try {
    doc = json ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new CaseFormatError(file, `cannot parse: ${(e as Error).message}`);
  }
  if (hasAliases) checkValueNesting(doc, file);
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
    if (e instanceof CaseFormatError) throw e;
    throw new CaseFormatError(path, `cannot read: ${(e as Error).message}`);
  }
}

/**
 * Case files under a directory, recursively, sorted by path; dot-entries (.git, editor files) and names without a
 * case-file extension are skipped. Symbolic links are followed: to a folder, walked, once (a link back to a folder
 * it is in, or to one read already, is refused: links could otherwise make the walk endless, or exponential); to
 * anything else with a case-file name, listed, so that reading it refuses what is not a regular file, and a link
 * to nothing, by name, rather than leave it out unsaid.
 */
function caseFilesUnder(dir: string): string[] {
  const out: string[] = [];
  /** Each folder read, by its real path: where it was read, and whether that is still under way. */
  const read = new Map<string, { path: string; walking: boolean }>();
  const walk = (d: string) => {
    const real = realpathSync(d);
    const before = read.get(real);
    if (before?.walking) throw new CaseFormatError(d, `a symbolic link back to ${real}, a folder it is in`);
    if (before) throw new CaseFormatError(d, `a symbolic link to ${real}, a folder read already as ${before.path}`);
    const state = { path: d, walking: true };
    read.set(real, state);
    // In name order, so that which of two links to one folder is refused does not depend on the file system.
    const entries = readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const p = join(d, entry.name);
      const isDirectory = entry.isSymbolicLink()
        ? (statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false)
        : entry.isDirectory();
      if (isDirectory) walk(p);
      else if (isCaseFile(p)) out.push(p);
    }
    state.walking = false;
  };
  walk(dir);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
