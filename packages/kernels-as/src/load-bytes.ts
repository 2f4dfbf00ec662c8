/**
 * Reads the kernels' bytes where there is no file system (browsers, workers, bundled apps): by fetch. A relative
 * path is taken relative to the page, as a `<script src>` would be. Node takes load-bytes-node.ts instead (the
 * package's `#load-bytes` import, by export condition), so no `node:` module is on the browser path.
 */
export async function loadBytes(source: string | URL): Promise<ArrayBuffer> {
  const url = new URL(source, pageUrl());
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`cannot load the wasm kernels from ${url}: ${(e as Error).message}. ${WHERE}`, { cause: e });
  }
  if (!res.ok) throw new Error(`cannot load the wasm kernels from ${url}: HTTP ${res.status}. ${WHERE}`);
  return res.arrayBuffer();
}

const WHERE =
  "If kernels.wasm is served elsewhere, say where: createRuntime({ backend: 'wasm', wasmPath: '/path/to/kernels.wasm' })";

function pageUrl(): string | undefined {
  const g = globalThis as { document?: { baseURI?: string }; location?: { href?: string } };
  return g.document?.baseURI ?? g.location?.href;
}
