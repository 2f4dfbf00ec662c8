import type { WasmContext } from '../wasm-context.js';

type Kernel = (args: Record<string, unknown>) => Record<string, unknown>;

/** Structural ops ported to wasm (group a), by op id: each takes the module context and the JS kernel to delegate to. */
export const PORTS_A: Record<string, (ctx: WasmContext, js: (args: never) => Record<string, unknown>) => Kernel> = {};
