import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isRecord, problemText, validateCase, type Case } from '@sparse/case-format';
import { parse as parseYaml } from 'yaml';
import { CaseFormatError } from './case-format-error.js';

export const CASE_FILE_EXTENSIONS = ['.yaml', '.yml', '.json'];

const isCaseFile = (path: string) => CASE_FILE_EXTENSIONS.includes(extname(path).toLowerCase());

/**
 * Loads the cases of a case file, or of every case file under a directory (recursively, in sorted path order).
 * Throws a CaseFormatError naming the file (and the case) for anything that does not follow docs/cases.md,
 * and for an op/name pair given twice.
 */
export function loadCases(path: string): Case[] {
  let files: string[];
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (e) {
    throw new CaseFormatError(path, `cannot read: ${(e as Error).message}`);
  }
  if (isDirectory) {
    files = caseFilesUnder(path);
  } else {
    if (!isCaseFile(path))
      throw new CaseFormatError(path, `not a case file: the name must end in ${CASE_FILE_EXTENSIONS.join(', ')}`);
    files = [path];
  }
  const cases: Case[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    parseCaseFile(readFileSync(file, 'utf8'), file).forEach((c, index) => {
      const key = `${c.op}/${c.name}`;
      const first = seen.get(key);
      if (first !== undefined)
        throw new CaseFormatError(
          file,
          `${key} is already a case in ${first}: names must be unique within an op`,
          index,
          c.name,
        );
      seen.set(key, file);
      cases.push(c);
    });
  }
  return cases;
}

/** Parses and validates the text of a case file; `file` picks the format by extension and names the file in errors. */
export function parseCaseFile(text: string, file: string): Case[] {
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
    const name = isRecord(raw) && typeof raw.name === 'string' ? raw.name : undefined;
    throw new CaseFormatError(file, problems.join('; '), index, name);
  });
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
