import { totalmem } from 'node:os';

/** The machine's memory in bytes, where the platform says (Node); elsewhere unknown. */
export function totalMemory(): number | undefined {
  return totalmem();
}
