import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The repository stands alone: its files point only at its own files, never at documents kept beside it.

const ROOT = join(import.meta.dirname, '../../..');
// This file names the forbidden strings, so it is the one file allowed to hold them.
const SELF = 'packages/codegen/test/repo-links.test.ts';
const FORBIDDEN = ['../shared', 'CASES.md', 'OPS.md', 'DESIGN.md', 'seeds/'];

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f !== '' && existsSync(join(ROOT, f)));
const trackedFiles = new Set(tracked);
const trackedDirs = new Set(
  tracked.flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);

/** The targets of the Markdown links and images of a text, outside code blocks and code spans. */
function linkTargets(markdown: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((raw, i) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (fence !== undefined) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = undefined;
      return;
    }
    if (opening) {
      fence = opening[1];
      return;
    }
    const text = raw.replace(/(`+)[\s\S]*?\1/g, '');
    // Inline links and images `[text](target "title")`, and reference definitions `[label]: target`.
    const inline = [...text.matchAll(/\[[^\]]*\]\(\s*(<[^>]*>|[^)\s]+)[^)]*\)/g)];
    const definitions = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/g)];
    for (const m of [...inline, ...definitions]) found.push({ line: i + 1, target: m[1] });
  });
  return found.map(({ line, target }) => ({ line, target: target.replace(/^<|>$/g, '') }));
}

/** Why a link target of `file` does not resolve to a tracked file or folder of the repository, or '' if it does. */
function brokenLink(file: string, target: string): string {
  if (/^(https?:|mailto:)/i.test(target) || target.startsWith('#')) return '';
  let path = target.replace(/[#?].*$/, '');
  try {
    path = decodeURI(path);
  } catch {
    return 'not a valid URI';
  }
  const abs = path.startsWith('/') ? join(ROOT, path) : resolve(ROOT, dirname(file), path);
  const rel = relative(ROOT, abs).split(sep).join('/');
  if (rel.startsWith('..') || isAbsolute(rel)) return 'points outside the repository';
  if (rel === '' || trackedFiles.has(rel) || trackedDirs.has(rel.replace(/\/$/, ''))) return '';
  return `no tracked file or folder ${rel}`;
}

/** Text files whose content is ours to check: lock files and recorded bench data are machine-written. */
function isCheckedText(file: string): boolean {
  if (file === SELF || file.split('/').pop() === 'package-lock.json') return false;
  if (/^bench\/results\/[^/]*\.json$/.test(file)) return false;
  return !readFileSync(join(ROOT, file)).includes(0);
}

describe('the repository stands alone', () => {
  it('every relative link of a tracked Markdown file resolves to a tracked file or folder of the repository', () => {
    const broken = tracked
      .filter((f) => /\.(md|markdown)$/i.test(f))
      .flatMap((f) =>
        linkTargets(readFileSync(join(ROOT, f), 'utf8')).flatMap(({ line, target }) => {
          const why = brokenLink(f, target);
          return why ? [`${f}:${line}: (${target}) ${why}`] : [];
        }),
      );
    expect(broken).toEqual([]);
  });

  it(`no tracked file names a document outside the repository (${FORBIDDEN.join(', ')})`, () => {
    const found = tracked.filter(isCheckedText).flatMap((f) =>
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((text, i) => FORBIDDEN.filter((s) => text.includes(s)).map((s) => `${f}:${i + 1}: ${s}`)),
    );
    expect(found).toEqual([]);
  });
});
