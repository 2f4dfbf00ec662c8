import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StepLine } from './runner-protocol.js';

/**
 * The file a runner process writes its steps to, one line of JSON each, and the command reads them from. A file
 * rather than a pipe: a write to it wakes no reader, so a step costs the runner a few microseconds and the
 * command nothing until it looks, which it does a few times a second.
 */
export class StepLog {
  /** Open for appending, to hand to the runner as it is. */
  readonly fd: number;
  private readonly folder = mkdtempSync(join(tmpdir(), 'sparse-conformance-'));
  private readOffset = 0;
  /** The bytes of a line still being written: a read may end anywhere in one, even inside a character. */
  private unfinished = Buffer.alloc(0);

  constructor() {
    this.fd = openSync(join(this.folder, 'steps.jsonl'), 'a+');
  }

  /** The lines written since the last call. */
  readNew(): StepLine[] {
    const chunks = [this.unfinished];
    for (;;) {
      const chunk = Buffer.allocUnsafe(1 << 16);
      const n = readSync(this.fd, chunk, 0, chunk.length, this.readOffset);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      this.readOffset += n;
    }
    const bytes = Buffer.concat(chunks);
    const end = bytes.lastIndexOf(0x0a) + 1;
    this.unfinished = bytes.subarray(end);
    const lines = bytes.subarray(0, end).toString('utf8').split('\n').slice(0, -1);
    return lines.map((line) => JSON.parse(line) as StepLine);
  }

  /** Closes and deletes the file. */
  remove(): void {
    closeSync(this.fd);
    rmSync(this.folder, { recursive: true, force: true });
  }
}
