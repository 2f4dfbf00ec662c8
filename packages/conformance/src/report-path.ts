import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CaseResult } from './case-result.js';

/**
 * Why the JSON report cannot be written to `path`, or undefined if it can: checked before any case runs, so that
 * a typo does not cost a whole run. The folder must exist already (it is not created) and be writable.
 */
export function reportPathProblem(path: string): string | undefined {
  const folder = dirname(resolve(path));
  const stat = statSync(folder, { throwIfNoEntry: false });
  if (stat === undefined) return `the folder ${folder} does not exist`;
  if (!stat.isDirectory()) return `${folder} is not a folder`;
  if (!canWrite(folder)) return `the folder ${folder} is not writable`;
  const existing = statSync(path, { throwIfNoEntry: false });
  if (existing?.isDirectory()) return `${path} is a folder`;
  if (existing && !canWrite(path)) return `${path} is not writable`;
  return undefined;
}

/** The report: `[{op, name, backend, status, message}]`, one entry per case and backend. */
export function writeJsonReport(path: string, results: readonly CaseResult[]): void {
  const report = results.map(({ op, name, backend, status, message }) => ({ op, name, backend, status, message }));
  writeFileSync(path, JSON.stringify(report, null, 2) + '\n');
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
