/**
 * Whether an error is the engine failing to allocate memory: an ArrayBuffer or typed array it cannot make, an array
 * or string past its largest, a WebAssembly memory that cannot grow. Other RangeErrors (a BigInt division by zero,
 * a negative length, a call stack too deep) are bugs or bad data, not memory, and are reported as what they are.
 */
export function isAllocationFailure(e: unknown): e is RangeError {
  if (!(e instanceof RangeError)) return false;
  const m = e.message;
  return (
    /allocation failed|out of memory|Maximum memory size exceeded|grow(?: instance)? memory/i.test(m) ||
    /^Invalid (?:typed array|array buffer|array|string) length(?:: \d+)?$/.test(m)
  );
}
