import { parentPort } from 'node:worker_threads';
import { serveThread, type ThreadInit } from './thread-serve.js';

// A wasm kernel thread in Node (worker_threads): started by spawn-thread-node.ts.
parentPort!.once('message', (init: ThreadInit) => serveThread(init, () => parentPort!.postMessage('ready')));
