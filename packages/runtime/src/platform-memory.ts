// What the platform says of its memory; elsewhere than Node (browsers), nothing reliable.

/** The machine's memory in bytes. */
export function totalMemory(): number | undefined {
  return undefined;
}

/** The bytes the JavaScript heap can still take (where strings and other JS values live). */
export function jsHeapRoom(): number | undefined {
  return undefined;
}
