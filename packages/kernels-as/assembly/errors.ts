// Kernel-side failures (an integer division by zero...) cannot throw across the wasm boundary: a kernel records
// the first one here and carries on; the JS side reads it after the call and raises the same error as the JS backend.

import { ERR_NONE } from './generated/error-codes';

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
