/** Tells the app something it should know that is no error: a Node process warning, else the console's. */
export function warn(message: string, code: string): void {
  const p = (globalThis as { process?: { emitWarning?: (m: string, o: { code: string }) => void } }).process;
  if (typeof p?.emitWarning === 'function') p.emitWarning(message, { code });
  else console.warn(message);
}
