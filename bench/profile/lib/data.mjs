// The profile's data: the very matrices the bench times (same generators, same seeds), written once as the raw
// binaries every peer reads (rows.bin, cols.bin int32; vals.bin, b.bin float32; shuffled/ for reorder).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchConfig } from '../../lib/config.mjs';
import { randomCoo, randomDense, shuffled, writeArray, writeCoo } from '../../lib/data.mjs';

/** Scaling point i of the full bench (nnz target `target`): A m×m with ~8 per row, B m×16 (sections/scaling.mjs). */
export function scalingData(work, target) {
  const { nnz, perRow, n } = benchConfig(false).scaling;
  const i = nnz.indexOf(target);
  if (i < 0) throw new Error(`${target} is not a scaling point of the bench (${nnz.join(', ')})`);
  const m = Math.max(1, Math.round(target / perRow));
  const dir = join(work, 'scaling', String(target));
  if (!existsSync(join(dir, 'meta.json'))) {
    const coo = randomCoo(m, m, perRow / m, 3000 + i);
    writeCoo(dir, coo);
    writeArray(dir, 'b.bin', randomDense(m, n, 4000 + i));
    writeCoo(join(dir, 'shuffled'), shuffled(coo, 5000 + i));
    writeArray(dir, 'meta.json', JSON.stringify({ m, k: m, n, nnz: coo.rows.length }));
  }
  return { dir, ...JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) };
}

/** The headline point: A 4096×4096 at 1%, B 4096×128 (the extended grid point of sections/spmm-grid.mjs). */
export function headlineData(work) {
  const grid = benchConfig(false).grid;
  const i = grid.findIndex((p) => p.extended && p.density === 0.01);
  const p = grid[i];
  const dir = join(work, 'headline');
  if (!existsSync(join(dir, 'meta.json'))) {
    const coo = randomCoo(p.m, p.k, p.density, 1000 + i);
    writeCoo(dir, coo);
    writeArray(dir, 'b.bin', randomDense(p.k, p.n, 2000 + i));
    writeArray(dir, 'meta.json', JSON.stringify({ m: p.m, k: p.k, n: p.n, nnz: coo.rows.length }));
  }
  return { dir, ...JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) };
}
