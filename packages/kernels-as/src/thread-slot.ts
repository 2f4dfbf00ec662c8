/**
 * The block of shared memory through which the main thread hands one worker thread a kernel call and reads back
 * how it went: a few i32 words, then the arguments (as f64, or as i64 where the kind word says so).
 */
export const SLOT_BYTES = 512;
/** The most arguments a kernel call may take. */
export const MAX_ARGS = 32;

/** Word indices of the slot's i32 header. */
export const Word = {
  /** Bumped by the main thread for each call it hands over (the worker waits on it). */
  Seq: 0,
  /** Set to Seq by the worker once the call is done (the main thread waits on it). */
  Done: 1,
  /** The export's index in the names the worker was given; EXIT ends the worker. */
  Fn: 2,
  Args: 3,
  ErrorCode: 4,
  ErrorEntry: 5,
  Result: 6,
  /** 1 when the call trapped (a wasm RuntimeError), not a recorded kernel error. */
  Trapped: 7,
  /** MAX_ARGS words: 1 where the argument is an i64 (read from the BigInt64Array view). */
  Kinds: 8,
} as const;

export const EXIT = -1;
const ARGS_OFFSET = 256;

/** Typed views of one slot. */
export class ThreadSlot {
  readonly words: Int32Array;
  readonly f64: Float64Array;
  readonly i64: BigInt64Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.words = new Int32Array(buffer, 0, ARGS_OFFSET / 4);
    this.f64 = new Float64Array(buffer, ARGS_OFFSET, MAX_ARGS);
    this.i64 = new BigInt64Array(buffer, ARGS_OFFSET, MAX_ARGS);
  }

  static create(): ThreadSlot {
    return new ThreadSlot(new SharedArrayBuffer(SLOT_BYTES));
  }

  writeArgs(args: readonly (number | bigint | boolean)[]): void {
    if (args.length > MAX_ARGS) throw new Error(`a threaded kernel call takes at most ${MAX_ARGS} arguments`);
    this.words[Word.Args] = args.length;
    args.forEach((a, i) => {
      const wide = typeof a === 'bigint';
      this.words[Word.Kinds + i] = wide ? 1 : 0;
      if (wide) this.i64[i] = a;
      else this.f64[i] = Number(a);
    });
  }

  readArgs(): (number | bigint)[] {
    const n = this.words[Word.Args];
    const args: (number | bigint)[] = new Array(n);
    for (let i = 0; i < n; i++) args[i] = this.words[Word.Kinds + i] === 1 ? this.i64[i] : this.f64[i];
    return args;
  }
}
