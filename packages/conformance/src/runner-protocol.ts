import type { RunStep } from './run-cases.js';

/**
 * How the command and the process that runs its cases (case-runner.ts) talk. Over Node's IPC channel, once each
 * and in this order: the runner says it is ready, with the backends its runtime has registered (which the command
 * checks `--backend` against); the command names the case file; the runner loads it and says what it loaded; the
 * command sends the job. The runner writes every step it takes to a file (step-log.ts), its fd STEPS_FD, one line
 * of JSON each, synchronously and before the step is taken: a runner stuck in a step has said which, and since
 * when. The steps are loading each case file, then opening each backend and running each case on it. The command
 * infers the steps the runner cannot or need not write itself, each from when it began: the runner's start-up,
 * from its spawn to its ready; loading, from the command naming the file (the runner's lines then name each file
 * of a folder); opening the first backend, from the command sending the job; and a case's start right after the
 * result of the case before, which it follows at once. So the runner is never waited for without a step under way.
 */
export const STEPS_FD = 3;

export interface RunnerReady {
  backends: string[];
}

/** The case file, or folder of them, to load, and the most bytes a case file may hold. */
export interface RunnerLoad {
  load: string;
  maxFileBytes: number;
}

/**
 * Each case loaded, by op and name, in order, and how many case files held them; or the file's CaseFormatError
 * message (no job follows then).
 */
export type RunnerLoaded = { cases: CaseName[]; files: number } | { loadError: string };

export interface CaseName {
  op: string;
  name: string;
}

/** The backends to run the loaded cases on, and where to start. */
export interface RunnerJob {
  backends: readonly string[];
  /** The first unit to run, as runCases counts them. */
  from: number;
  /** The byte budget of each backend's runtime. */
  maxBytes: number;
}

/** A step before the job: the runner's start-up (never logged: the command counts it from the spawn), or loading. */
export type LoadStep = { step: 'starting' } | { step: 'loading'; path: string };

/**
 * A line of the step log: a step with when it was taken (Date.now()), loading a case file or a step of the run,
 * or the end of the job.
 */
export type StepLine = ((RunStep | Extract<LoadStep, { step: 'loading' }>) & { at: number }) | { step: 'done' };
