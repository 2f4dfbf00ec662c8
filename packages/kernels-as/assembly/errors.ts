// Kernel-side failures (an integer division by zero...) cannot throw across the wasm boundary: a kernel records
// the first one here and carries on; the JS side reads it after the call and raises the same error as the JS backend.

export const ERR_NONE: i32 = 0;
export const ERR_DIV_BY_ZERO: i32 = 1;
export const ERR_NEGATIVE_POWER: i32 = 2;

let errorCode: i32 = ERR_NONE;
let errorEntry: i32 = -1;
let currentEntry: i32 = 0;

/** The entry being computed, so that a failure can name it. */
@inline export function atEntry(i: i32): void {
  currentEntry = i;
}

export function fail(code: i32): void {
  if (errorCode == ERR_NONE) {
    errorCode = code;
    errorEntry = currentEntry;
  }
}

export function lastErrorCode(): i32 {
  return errorCode;
}

export function lastErrorEntry(): i32 {
  return errorEntry;
}

export function clearError(): void {
  errorCode = ERR_NONE;
  errorEntry = -1;
}
