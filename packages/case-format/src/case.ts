/** The shape of a conformance case (docs/cases.md), once it has passed `validateCase`. */

/** The error kinds a case may expect: bad data, an argument of the wrong kind, or a call past the byte budget. */
export const ERROR_KINDS = ['InvalidArgument', 'TypeError', 'ResourceExhausted'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface ExpectError {
  kind: ErrorKind;
  /** A regex the error message must match (searched, not anchored). */
  match?: string;
}

export interface Tolerance {
  rtol?: number;
  atol?: number;
}

export interface Case {
  /** The op id: the spec's `name`. */
  op: string;
  /** Unique within the op. */
  name: string;
  /** Where the example comes from. */
  doc?: string;
  /** Keyed by the spec's argument names; values in the value forms of docs/cases.md. */
  args: Record<string, unknown>;
  /** Keyed by the spec's output names; exactly one of `expect` and `expect_error` is set. */
  expect?: Record<string, unknown>;
  expect_error?: ExpectError;
  tolerance?: Tolerance;
}

/** A case among an op spec's `examples`: the spec says which op it is, so `op` may be left out. */
export type Example = Omit<Case, 'op'> & { op?: string };
