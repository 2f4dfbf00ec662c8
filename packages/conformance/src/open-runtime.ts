import { createRuntime, type Runtime } from '@sparse/runtime';

/**
 * A runtime for a backend, with a byte budget (the runtime's default if undefined), or why there is none (unknown
 * name, not available here): never throws.
 */
export async function openRuntime(
  backend: string,
  maxBytes?: number,
): Promise<{ runtime: Runtime } | { reason: string }> {
  try {
    return { runtime: await createRuntime({ backend, maxBytes }) };
  } catch (e) {
    return { reason: `backend ${backend} is unavailable: ${e instanceof Error ? e.message : String(e)}` };
  }
}
