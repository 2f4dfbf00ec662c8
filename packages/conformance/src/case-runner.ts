// The process in which sparse-conformance runs its cases, apart from the command itself so that the command can
// stop a case that does not end (runner-process.ts). It loads the case file it is given, takes one job, runs it,
// logs each step (loading each case file, opening each backend, running each case), and exits.
import { writeSync } from 'node:fs';
import { listBackends } from '@sparse/runtime';
import { CaseFormatError } from './case-format-error.js';
import { loadCases } from './load-cases.js';
import {
  STEPS_FD,
  type RunnerJob,
  type RunnerLoad,
  type RunnerLoaded,
  type RunnerReady,
  type StepLine,
} from './runner-protocol.js';
import { runCases, type RunStep } from './run-cases.js';
import type { LoadedCase } from './unreadable-case.js';

// Written at once, before the step is taken: a step that never ends has been logged all the same.
const log = (line: StepLine) => writeSync(STEPS_FD, JSON.stringify(line) + '\n');

// Each listener is in place before the message it waits for can be sent: one sent before would be lost.
process.once('message', ({ load, maxFileBytes }: RunnerLoad) => {
  let cases: LoadedCase[];
  let files = 0;
  try {
    const onFile = (path: string) => {
      files++;
      log({ step: 'loading', path, at: Date.now() });
    };
    cases = loadCases(load, { onFile, maxFileBytes });
  } catch (e) {
    if (!(e instanceof CaseFormatError)) throw e;
    process.send!({ loadError: e.message } satisfies RunnerLoaded);
    return;
  }
  process.once('message', (job: RunnerJob) => {
    // A case that follows another's result begins at once: the command infers its start from that result
    // (runner-process.ts), which halves what a run writes.
    let previous: RunStep['step'] | undefined;
    const onStep = (step: RunStep) => {
      if (step.step !== 'running' || previous !== 'finished') log({ ...step, at: Date.now() });
      previous = step.step;
    };
    void runCases(cases, job.backends, { from: job.from, maxBytes: job.maxBytes, onStep }).then(() => {
      log({ step: 'done' });
      // Whatever a backend left open (a GPU context, a timer) is not to keep the command waiting.
      process.exit(0);
    });
  });
  process.send!({ cases: cases.map(({ op, name }) => ({ op, name })), files } satisfies RunnerLoaded);
});
process.send!({ backends: listBackends() } satisfies RunnerReady);
