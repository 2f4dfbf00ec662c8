import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';

/** The machine's memory in bytes. */
export function totalMemory(): number | undefined {
  return totalmem();
}

/** The bytes the JavaScript heap can still take (where strings and other JS values live). */
export function jsHeapRoom(): number | undefined {
  const h = getHeapStatistics();
  return h.heap_size_limit - h.used_heap_size;
}
