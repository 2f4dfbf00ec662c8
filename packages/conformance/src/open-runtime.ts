import { createRuntime, type Runtime } from '@sparse/runtime';

/** A runtime for a backend, or why there is none (unknown name, not available here): never throws. */
export async function openRuntime(backend: string): Promise<{ runtime: Runtime } | { reason: string }> {
  try {
    return { runtime: await createRuntime({ backend }) };
  } catch (e) {
    return { reason: `backend ${backend} is unavailable: ${e instanceof Error ? e.message : String(e)}` };
  }
}
