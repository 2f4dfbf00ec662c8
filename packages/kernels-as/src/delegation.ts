/**
 * The one place that says which ops the wasm backend hands to the JS kernels, and why. A call of one of these
 * is reported as `delegated`, never as `passed`. (Ops with wasm kernels may still delegate a single call: bool or
 * string values, or dims beyond i32 — each such kernel says so itself.)
 */
export const DELEGATED_OPS: Readonly<Record<string, string>> = {
};
