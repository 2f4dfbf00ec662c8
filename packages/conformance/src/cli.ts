#!/usr/bin/env node
import { RunnerProcess, stopRunners } from './runner-process.js';

// Stopped by a signal, the command stops its runner first, then stops as the signal says.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    stopRunners();
    process.kill(process.pid, signal);
  });
}

// The runner process starts before the command loads the rest of itself: its start-up is the longest wait of a
// run, and overlaps the command's own that way (it is timed from here, within --load-timeout-ms). It is closed when
// the command ends, used or not.
const runner = new RunnerProcess();
const { runCommand } = await import('./command.js');
try {
  // exitCode rather than exit(): lets stdout drain when it is a pipe.
  process.exitCode = await runCommand(process.argv.slice(2), runner);
} finally {
  runner.close();
}
