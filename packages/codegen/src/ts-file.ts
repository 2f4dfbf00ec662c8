import { IndentationText, Project, QuoteKind, type SourceFile } from 'ts-morph';
import { tsHeader } from './header.js';

const project = new Project({
  useInMemoryFileSystem: true,
  manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Single },
});

/** Builds a TS source file with ts-morph and returns its text, header first. */
export function buildTsFile(name: string, build: (file: SourceFile) => void): string {
  const file = project.createSourceFile(name, '', { overwrite: true });
  build(file);
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return tsHeader + file.getFullText();
}

/** Formats TS source text (a template's output) the way ts-morph formats the files it builds. */
export function formatTs(name: string, text: string): string {
  const file = project.createSourceFile(name, text, { overwrite: true });
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return file.getFullText();
}
