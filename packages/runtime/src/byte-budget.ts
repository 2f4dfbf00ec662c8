import { totalMemory } from '#platform-memory';

/** Where the platform does not say how much memory there is (browsers): what one op may take by default. */
const BROWSER_MAX_BYTES = 2 ** 30;

/**
 * The bytes one op's outputs and working memory may take unless `createRuntime({ maxBytes })` says otherwise: a
 * quarter of the machine's memory in Node (room for the inputs, the copies an app makes and the rest of the
 * process), 1 GiB where the platform does not say.
 */
export function defaultMaxBytes(): number {
  const total = totalMemory();
  return total === undefined ? BROWSER_MAX_BYTES : Math.floor(total / 4);
}
