// One minified ES module for browsers from a package's compiled entry (dist/index.js), as the prebuilt browser
// files of @sparse/runtime and @sparse/kernels-gpu are made: everything it imports inside, the browser builds of
// its dependencies (their "browser" fields and conditions), a source map and the licences of what it holds.
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';

/** Bundles `entry` into `outfile`; returns the bundle's size in KiB. */
export async function buildBrowserModule(entry, outfile) {
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  return Math.round(statSync(outfile).size / 1024);
}
