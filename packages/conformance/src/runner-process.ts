import { fork, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CaseResult } from './case-result.js';
import type { RunStep } from './run-cases.js';
import {
  STEPS_FD,
  type LoadStep,
  type RunnerJob,
  type RunnerLoad,
  type RunnerLoaded,
  type RunnerReady,
} from './runner-protocol.js';
import { StepLog } from './step-log.js';

const RUNNER = fileURLToPath(new URL('./case-runner.js', import.meta.url));

/** The last characters of the runner's stderr kept for saying why it died (V8's out-of-memory line, say). */
const STDERR_KEPT = 2000;

/** A step a runner takes, and may not come back from: starting, loading, opening a backend, running a case. */
export type OpenStep = LoadStep | Exclude<RunStep, { step: 'finished' }>;

/**
 * How a runner process ended: it ran its job to the end; it was stopped in a step that took too long; it was
 * stopped for a step that, as it turned out, ended between the look and the kill (nothing to blame: the run goes
 * on from where it was); or it died, in a step or not.
 */
export type RunnerEnd =
  | { finished: true }
  | { during: OpenStep; timedOut: true }
  | { interrupted: true }
  | { during: OpenStep | undefined; died: string };

/** The runners alive, so that a command that is stopped can stop them: one stuck in a case would run on. */
const alive = new Set<RunnerProcess>();

/** Stops every runner process still alive, at once: for a command that is stopping without waiting for them. */
export function stopRunners(): void {
  for (const runner of alive) runner.abandon();
}

/**
 * A child process that loads and runs cases (case-runner.ts), watched: each step it takes must end within its time
 * limit, or the process is killed. Starting (from the spawn until it says it is ready) and loading the case file
 * (each file of a folder a step) have the load limit; opening a backend and running one case on one, the job's.
 * Killing is the one way to stop for sure synchronous JavaScript, a wasm loop or a native call. The command looks
 * at the runner's step log a few times a second (a tenth of the limit, at most 100 ms), so a step is stopped that
 * long after its limit at most. The process starts at once, so that its start-up, the longest wait of a run,
 * overlaps the command's own; that start-up is under way, and timed, from then.
 */
export class RunnerProcess {
  /** The backends the runner's runtime has registered, once it is ready; or how it ended before. */
  readonly ready: Promise<RunnerReady | RunnerEnd>;
  private readonly log = new StepLog();
  private readonly child: ChildProcess;
  private readonly ended: Promise<RunnerEnd>;
  private stopped: RunnerEnd | undefined;
  /** The step under way, since when; undefined while the runner waits for the command. */
  private during: (OpenStep & { at: number }) | undefined = { step: 'starting', at: Date.now() };
  /** How long a step may take: the load limit, then the job's. */
  private limitMs = Infinity;
  private job: { units: number; onResult: (r: CaseResult) => void } | undefined;
  private poller: NodeJS.Timeout | undefined;
  private stderrTail = '';

  constructor() {
    // The runner's stdout goes to stderr: the command's stdout is its report, whatever a backend prints.
    const stdio: StdioOptions = ['ignore', 2, 'pipe', 'ipc'];
    stdio.splice(STEPS_FD, 0, this.log.fd);
    this.child = fork(RUNNER, [], { stdio });
    alive.add(this);
    this.child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_KEPT);
    });
    this.ended = new Promise((resolve) => {
      const end = (how: string) => {
        if (!alive.delete(this)) return;
        clearInterval(this.poller);
        this.readSteps(); // the last it wrote, before it ended
        this.log.remove();
        const { stopped } = this;
        // In a job, a step that ended between the look and the kill is not blamed (the run goes on from where it
        // was); starting or loading, the step stopped took its limit all the same.
        if (stopped && 'timedOut' in stopped && this.job && stepKey(stopped.during) !== stepKey(this.during))
          resolve({ interrupted: true });
        else resolve(stopped ?? { during: this.during, died: this.died(how) });
      };
      this.child.on('close', (code, signal) => end(signal ? `signal ${signal}` : `exit code ${code}`));
      // A process that could not be started has no pid, and may never close.
      this.child.on('error', (e) => (this.child.pid === undefined ? end(e.message) : this.child.kill('SIGKILL')));
    });
    this.ready = new Promise((resolve) => {
      this.child.once('message', (m: RunnerReady) => {
        // Started: it waits for the command now.
        if (this.during?.step === 'starting') this.during = undefined;
        resolve(m);
      });
      void this.ended.then(resolve);
    });
  }

  /**
   * Has the runner load a case file (or folder), each file within `maxFileBytes`, its start-up and the load each
   * within `limitMs`: says what it
   * loaded, or why it could not, with the backends its runtime has registered; or how the runner ended (stopped
   * while starting or loading, if it took too long).
   */
  async load(
    { cases: casesPath, maxFileBytes }: { cases: string; maxFileBytes: number },
    limitMs: number,
  ): Promise<(RunnerLoaded & RunnerReady) | RunnerEnd> {
    this.watch(limitMs);
    try {
      const ready = await this.ready;
      // Stopped at its limit, a runner may still have said it was ready.
      if (!('backends' in ready) || this.stopped) return await this.ended;
      const loaded = new Promise<RunnerLoaded | RunnerEnd>((resolve) => {
        this.child.once('message', (m: RunnerLoaded) => resolve(m));
        void this.ended.then(resolve);
      });
      // Loading begins as the command names the file; the runner's lines then name each file it reads.
      this.during = { step: 'loading', path: casesPath, at: Date.now() };
      this.child.send({ load: casesPath, maxFileBytes } satisfies RunnerLoad);
      const answer = await loaded;
      if (this.stopped || !('cases' in answer || 'loadError' in answer)) return await this.ended;
      this.during = undefined;
      return { ...answer, backends: ready.backends };
    } finally {
      clearInterval(this.poller);
    }
  }

  /**
   * Runs a job on the cases loaded (`units` of them on all the backends), each step within `timeoutMs`, passing
   * on each result, until the process ends; says how it ended. Once only, after a `load` that loaded cases.
   */
  run(job: RunnerJob, units: number, timeoutMs: number, onResult: (r: CaseResult) => void): Promise<RunnerEnd> {
    this.job = { units, onResult };
    // Its first step, which it logs as it takes it: opening the backend of the first unit.
    const backend = job.backends[Math.floor(job.from / (units / job.backends.length))];
    this.during = { step: 'opening', backend, at: Date.now() };
    this.child.send(job);
    this.watch(timeoutMs);
    return this.ended;
  }

  /** Ends the process, if it has not ended: when no job is coming. */
  close(): void {
    this.stop({ finished: true });
  }

  /** Ends the process and deletes its step log now, not once it has closed: the command will not wait. */
  abandon(): void {
    this.close();
    if (alive.delete(this)) this.log.remove();
  }

  /** Looks at the step log every tenth of `limitMs` (10 to 100 ms), stopping a step that takes longer. */
  private watch(limitMs: number): void {
    this.limitMs = limitMs;
    clearInterval(this.poller);
    if (this.stopped) return;
    this.poller = setInterval(() => this.look(), Math.min(100, Math.max(10, Math.floor(limitMs / 10))));
  }

  private look(): void {
    this.readSteps();
    const { during } = this;
    if (during !== undefined && Date.now() - during.at >= this.limitMs) this.stop({ during, timedOut: true });
  }

  private readSteps(): void {
    for (const line of this.log.readNew()) {
      switch (line.step) {
        case 'loading':
        case 'opening':
        case 'running':
          this.during = line;
          break;
        case 'finished': {
          // The next case, if any, began then: the runner does not log that start (runner-protocol.ts).
          const next = line.unit + 1;
          this.during = next < this.job!.units ? { step: 'running', unit: next, at: line.at } : undefined;
          this.job!.onResult(line.result);
          break;
        }
        case 'done':
          this.stopped ??= { finished: true };
          break;
      }
    }
  }

  private stop(end: RunnerEnd): void {
    this.stopped ??= end;
    clearInterval(this.poller);
    this.child.kill('SIGKILL');
  }

  /** `died (signal SIGABRT): FATAL ERROR: … JavaScript heap out of memory`: how, and the last error it printed. */
  private died(how: string): string {
    const lines = this.stderrTail
      .split('\n')
      .map((l) => l.trim())
      .reverse();
    // The error's own line, not the JavaScript (`at f (file:1:2)`) or native (`3: 0xee85e7 …`) stack below it.
    const isFrame = (l: string) => l.startsWith('at ') || /^\d+: 0x/.test(l);
    const said = lines.find((l) => /error/i.test(l) && !isFrame(l)) ?? lines.find((l) => l !== '');
    return `died (${how})${said ? `: ${said}` : ''}`;
  }
}

/** A step as what it is, without when it began: the same step inferred and then logged has one key. */
const stepKey = (step: OpenStep | undefined) => (step === undefined ? '' : JSON.stringify({ ...step, at: undefined }));

/**
 * Why a runner that ended while starting or loading (its `load` did not give cases) loaded nothing: one line, its
 * process called `subject` (the command's first runner, or a new one after a kill); `limitMs` the load limit.
 */
export function whyNotLoaded(end: RunnerEnd, limitMs: number, subject: string): string {
  const { during } = 'during' in end ? end : { during: undefined };
  const limit = `${limitMs} ms (--load-timeout-ms)`;
  if (during?.step === 'loading')
    return 'timedOut' in end
      ? `${during.path}: did not load within ${limit}`
      : `${during.path}: the process loading it ${'died' in end ? end.died : 'ended'}`;
  if ('timedOut' in end) return `${subject} did not start within ${limit}`;
  return `${subject} ${'died' in end ? end.died : 'ended'}`;
}
