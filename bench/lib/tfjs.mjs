// TensorFlow.js as a peer: tfjs-core with its `cpu` (plain JS) and `wasm` (XNNPACK, SIMD) backends, pinned dev
// dependencies of the bench. In Node the wasm backend loads its .wasm binaries from the package's dist folder,
// given here as a file path. Production mode is on (no per-op debug checks), as a user would ship it.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const TFJS_BACKENDS = ['cpu', 'wasm'];

/**
 * Loads TensorFlow.js. Returns {tf, backends: the ones that initialised} and records versions and availability
 * in `status` (results.peers.tfjs). Never throws: a missing package or backend is recorded as unavailable.
 */
export async function loadTfjs(status) {
  const warn = console.warn;
  const log = console.log;
  // tfjs-core prints a banner recommending tfjs-node on import in Node; keep the bench output to the results.
  console.warn = console.log = () => {};
  try {
    const tf = await import('@tensorflow/tfjs-core');
    await import('@tensorflow/tfjs-backend-cpu');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    const require = createRequire(import.meta.url);
    const dist = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + '/';
    wasm.setWasmPaths(dist);
    tf.env().set('PROD', true);
    const backends = [];
    const reasons = {};
    for (const b of TFJS_BACKENDS) {
      try {
        if (await tf.setBackend(b)) {
          await tf.ready();
          backends.push(b);
        } else reasons[b] = 'setBackend returned false';
      } catch (e) {
        reasons[b] = String(e?.message ?? e).split('\n')[0];
      }
    }
    const pkg = (p) => require(`${p}/package.json`).version;
    status.tfjs = {
      available: backends.length > 0,
      backends,
      unavailable_backends: reasons,
      versions: {
        'tfjs-core': pkg('@tensorflow/tfjs-core'),
        'tfjs-backend-cpu': pkg('@tensorflow/tfjs-backend-cpu'),
        'tfjs-backend-wasm': pkg('@tensorflow/tfjs-backend-wasm'),
      },
      wasm: backends.includes('wasm')
        ? {
            simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'),
            threads: await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'),
          }
        : undefined,
      prod: true,
    };
    return { tf, backends };
  } catch (e) {
    status.tfjs = { available: false, reason: String(e?.message ?? e).split('\n')[0] };
    return { tf: undefined, backends: [] };
  } finally {
    console.warn = warn;
    console.log = log;
  }
}

/** Switches TensorFlow.js to backend `b` (already initialised by loadTfjs). */
export async function useTfjs(tf, b) {
  await tf.setBackend(b);
  await tf.ready();
}

/** Reads every output tensor back (dataSync: the op has run and its values are in JS) and frees them. */
export function consume(out) {
  const ts = Array.isArray(out) ? out : out && typeof out.dataSync === 'function' ? [out] : Object.values(out ?? {});
  for (const t of ts) {
    t.dataSync();
    t.dispose();
  }
}
