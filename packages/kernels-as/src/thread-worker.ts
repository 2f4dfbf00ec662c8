import { serveThread, type ThreadInit } from './thread-serve.js';

// A wasm kernel thread in a browser (a module Web Worker): started by spawn-thread.ts.
const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<ThreadInit>) => void) | null;
  postMessage(message: unknown): void;
};
scope.onmessage = (e) => {
  scope.onmessage = null;
  serveThread(e.data, () => scope.postMessage('ready'));
};
