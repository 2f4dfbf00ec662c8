import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Reads the kernels' bytes in Node: a file: URL or a file path (relative to the working directory) from disk, an
 * http(s) URL by fetch. Picked by the `node` condition of the package's `#load-bytes` import.
 */
export async function loadBytes(source: string | URL): Promise<ArrayBuffer> {
  const url = typeof source === 'string' && !HAS_SCHEME.test(source) ? pathToFileURL(resolve(source)) : new URL(source);
  if (url.protocol !== 'file:') {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`cannot load the wasm kernels from ${url}: HTTP ${res.status}`);
    return res.arrayBuffer();
  }
  try {
    const buf = await readFile(url);
    return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  } catch (e) {
    throw new Error(`cannot load the wasm kernels from ${url.pathname}: ${(e as Error).message}`, { cause: e });
  }
}

/** A URL scheme of two letters or more (one letter is a Windows drive: C:\…). */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]+:/i;
