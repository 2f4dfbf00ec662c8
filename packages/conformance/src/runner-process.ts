import { fork, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CaseResult } from './case-result.js';
import type { RunStep } from './run-cases.js';
import { STEPS_FD, type RunnerJob, type RunnerLoad, type RunnerLoaded, type RunnerReady } from './runner-protocol.js';
import { StepLog } from './step-log.js';

const RUNNER = fileURLToPath(new URL('./case-runner.js', import.meta.url));

/** The last characters of the runner's stderr kept for saying why it died (V8's out-of-memory line, say). */
const STDERR_KEPT = 2000;

/** A step a runner takes, and may not come back from. */
export type OpenStep = Exclude<RunStep, { step: 'finished' }>;

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
 * A child process that runs cases (case-runner.ts), watched: each step it takes, opening a backend or running one
 * case on one, must end within the job's time limit, or the process is killed. Killing is the one way to stop for
 * sure synchronous JavaScript, a wasm loop or a native call. The command looks at the runner's step log a few
 * times a second (a tenth of the limit, at most 100 ms), so a step is stopped that long after its limit at most.
 * The process starts at once, so that its start-up, the longest wait of a run, overlaps the command's own.
 */
export class RunnerProcess {
  /** The backends the runner's runtime has registered, once it is ready; or how it ended before. */
  readonly ready: Promise<RunnerReady | RunnerEnd>;
  private readonly log = new StepLog();
  private readonly child: ChildProcess;
  private readonly ended: Promise<RunnerEnd>;
  private stopped: RunnerEnd | undefined;
  private during: (OpenStep & { at: number }) | undefined;
  private job: { units: number; timeoutMs: number; onResult: (r: CaseResult) => void } | undefined;
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
        if (stopped && 'timedOut' in stopped && stopped.during !== this.during) resolve({ interrupted: true });
        else resolve(stopped ?? { during: this.during, died: this.died(how) });
      };
      this.child.on('close', (code, signal) => end(signal ? `signal ${signal}` : `exit code ${code}`));
      // A process that could not be started has no pid, and may never close.
      this.child.on('error', (e) => (this.child.pid === undefined ? end(e.message) : this.child.kill('SIGKILL')));
    });
    this.ready = new Promise((resolve) => {
      this.child.once('message', (m: RunnerReady) => resolve(m));
      void this.ended.then(resolve);
    });
  }

  /**
   * Has the runner load a case file (or folder): says what it loaded, or why it could not, with the backends its
   * runtime has registered; or how the runner ended.
   */
  async load(casesPath: string): Promise<(RunnerLoaded & RunnerReady) | RunnerEnd> {
    const ready = await this.ready;
    if (!('backends' in ready)) return ready;
    const loaded = new Promise<RunnerLoaded | RunnerEnd>((resolve) => {
      this.child.once('message', (m: RunnerLoaded) => resolve(m));
      void this.ended.then(resolve);
    });
    this.child.send({ load: casesPath } satisfies RunnerLoad);
    const answer = await loaded;
    return 'cases' in answer || 'loadError' in answer ? { ...answer, backends: ready.backends } : answer;
  }

  /**
   * Runs a job on the cases loaded (`units` of them on all the backends), passing on each result, until the
   * process ends; says how it ended. Once only, after a `load` that loaded cases.
   */
  run(job: RunnerJob, units: number, timeoutMs: number, onResult: (r: CaseResult) => void): Promise<RunnerEnd> {
    this.job = { units, timeoutMs, onResult };
    this.child.send(job);
    const pollMs = Math.min(100, Math.max(10, Math.floor(timeoutMs / 10)));
    this.poller = setInterval(() => this.watch(), pollMs);
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

  private watch(): void {
    this.readSteps();
    const { during } = this;
    if (during !== undefined && Date.now() - during.at >= this.job!.timeoutMs) this.stop({ during, timedOut: true });
  }

  private readSteps(): void {
    for (const line of this.log.readNew()) {
      switch (line.step) {
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
