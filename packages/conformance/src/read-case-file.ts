import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { CaseFormatError } from './case-format-error.js';

/** What one case file may hold unless told otherwise: the spec examples take 300 kB, a hand-written file far less. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 2 ** 20;

const CHUNK_BYTES = 2 ** 16;

/**
 * The text of a case file, refused with a CaseFormatError naming it where it is not a regular file (a FIFO, a
 * device such as /dev/zero, which would be read without end) or holds more than `maxBytes`. The kind and size are
 * taken from the open file (fstat), so a file swapped after a look cannot slip past, and the limit holds while
 * reading too, for a file that grows.
 */
export function readCaseFile(path: string, maxBytes: number): string {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, before fstat could refuse it.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new CaseFormatError(path, `cannot read: ${(e as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new CaseFormatError(path, `not a regular file (${kindOf(stat)}): refused`);
    if (stat.size > maxBytes) throw tooBig(path, `${stat.size} bytes`, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const n = readSync(fd, chunk);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw tooBig(path, `more than ${maxBytes} bytes`, maxBytes);
      chunks.push(chunk.subarray(0, n));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } catch (e) {
    if (e instanceof CaseFormatError) throw e;
    throw new CaseFormatError(path, `cannot read: ${(e as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

const tooBig = (path: string, held: string, maxBytes: number) =>
  new CaseFormatError(path, `holds ${held}; a case file may hold at most ${maxBytes} bytes (--max-file-bytes)`);

function kindOf(stat: ReturnType<typeof fstatSync>): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}
