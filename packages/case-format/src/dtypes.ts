/** The dtypes a case's tensors may name (the runtime's dtypes). */
export const DTYPE_NAMES = ['float32', 'float64', 'int32', 'int64', 'bool', 'string'] as const;
export type DTypeName = (typeof DTYPE_NAMES)[number];

export const isDTypeName = (x: unknown): x is DTypeName => (DTYPE_NAMES as readonly unknown[]).includes(x);

export const isFloatDType = (dtype: unknown): dtype is 'float32' | 'float64' =>
  dtype === 'float32' || dtype === 'float64';
