import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'release-plan-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every workspace package (packages/*): its name and whether it is published. */
const PACKAGES = readdirSync(join(ROOT, 'packages'))
  .filter((d) => existsSync(join(ROOT, 'packages', d, 'package.json')))
  .map((d) => JSON.parse(readFileSync(join(ROOT, 'packages', d, 'package.json'), 'utf8')) as Manifest);

interface Manifest {
  name: string;
  private?: boolean;
}

// `npm run version-packages` works from the changesets as they are: no changeset mixes an ignored (unpublished)
// package with published ones, and the published packages, found by the config's glob, move together.
it('the pending changesets make one release plan: every published package at one version, the private ones none', () => {
  const out = join(work, 'plan.json');
  execFileSync('npx', ['changeset', 'status', `--output=${out}`], { cwd: ROOT, stdio: 'pipe' });
  const plan = JSON.parse(readFileSync(out, 'utf8')) as {
    releases: { name: string; newVersion: string; type: string }[];
  };
  if (plan.releases.length === 0) return; // nothing pending: nothing to release
  const published = PACKAGES.filter((p) => !p.private).map((p) => p.name);
  const released = plan.releases.filter((r) => r.type !== 'none');
  expect(released.map((r) => r.name).sort()).toEqual(published.sort());
  expect(new Set(released.map((r) => r.newVersion)).size).toBe(1);
  for (const p of PACKAGES.filter((p) => p.private))
    expect(plan.releases.find((r) => r.name === p.name)?.type ?? 'none').toBe('none');
});
