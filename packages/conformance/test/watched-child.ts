import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs node with `args` in the conformance package, killing it if its resident memory passes `limit` (read from
 * /proc every 20 ms: typed arrays live outside the V8 heap that --max-old-space-size limits); its JSON lines, and
 * its peak (the larger of what was seen and a `maxRssBytes` line it prints).
 */
export function runWatched(args: string[], limit: number) {
  return new Promise<{ lines: Record<string, unknown>[]; peak: number; killed: boolean }>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: join(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let peak = 0;
    let killed = false;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const watch = setInterval(() => {
      const rss = residentBytes(child.pid!);
      peak = Math.max(peak, rss);
      if (rss > limit) {
        killed = true;
        child.kill('SIGKILL');
      }
    }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(watch);
      if (code !== 0 && !killed) return reject(new Error(`the child exited ${code}: ${err.slice(-2000)}`));
      const lines = out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const reported = lines.find((l) => 'maxRssBytes' in l)?.maxRssBytes as number | undefined;
      resolve({ lines, peak: Math.max(peak, reported ?? 0), killed });
    });
  });
}

function residentBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0; // the process has just exited
  }
}
