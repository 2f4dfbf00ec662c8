// The soak test's HTTP service, written as a user of @sparse/runtime would write one: JSON request bodies name an
// op from a small menu and its arguments (sparse tensors as { indices, values, dense_shape, dtype }, dense ones as
// { dense, dtype }); the op runs on the wasm backend with two threads under a byte budget, and the outputs come back
// as JSON. Bad input is a 4xx carrying the runtime's message, anything else a 500. GET /stats tells where its
// memory is. It runs as a child process of the load generator (load.mjs), which watches its memory and its exit;
// it prints its port as one JSON line.
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  InvalidArgumentError,
  ResourceExhaustedError,
  SparseTensor,
  Tensor,
  createRuntime,
  tensor,
} from '@sparse/runtime';

const MAX_BODY = Number(process.env.SOAK_MAX_BODY ?? 4 * 2 ** 20);
const MAX_BYTES = Number(process.env.SOAK_MAX_BYTES ?? 8 * 2 ** 20);

const MENU = {
  to_dense: 'sparse_tensor_to_dense',
  reduce_sum: 'sparse_reduce_sum',
  sparse_dense_matmul: 'sparse_tensor_dense_matmul',
  add: 'sparse_add',
  reorder: 'sparse_reorder',
  segment_sum: 'sparse_segment_sum',
  bincount: 'sparse_bincount',
};

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const rt = await createRuntime({ backend: 'wasm', threads: 2, maxBytes: MAX_BYTES });

/** The body as text, refused with 413 past MAX_BODY without buffering the rest (Node drains it after the reply). */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY) return reject(new HttpError(413, `body of ${declared} bytes, more than ${MAX_BODY}`));
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        chunks.length = 0;
        req.removeAllListeners('data');
        req.resume();
        reject(new HttpError(413, `body of more than ${MAX_BODY} bytes`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', (e) => reject(Object.assign(e, { clientGone: true })));
  });
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The op id and its arguments, dense ones made Tensors; a dense argument's error names the op and the argument. */
function decode(text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `the body is not JSON: ${e.message}`);
  }
  if (!isObject(body)) throw new HttpError(400, 'the body must be a JSON object { op, args }');
  if (typeof body.op !== 'string' || !Object.hasOwn(MENU, body.op)) {
    const given = typeof body.op === 'string' ? JSON.stringify(body.op.slice(0, 100)) : `of type ${typeof body.op}`;
    throw new HttpError(400, `unknown op ${given} (the ops are ${Object.keys(MENU).join(', ')})`);
  }
  const opId = MENU[body.op];
  if (!isObject(body.args)) throw new HttpError(400, `${opId}: args must be an object keyed by argument name`);
  // fromEntries defines own properties, so a key named __proto__ stays an (unknown) argument.
  const args = Object.fromEntries(
    Object.entries(body.args).map(([name, v]) => {
      if (!isObject(v) || !Object.hasOwn(v, 'dense')) return [name, v];
      try {
        return [name, tensor(v.dense, v.dtype)];
      } catch (e) {
        e.message = `${opId}: ${name}: ${e.message}`;
        throw e;
      }
    }),
  );
  return { opId, args };
}

// JSON has no int64, NaN or Infinity: int64 values travel as strings of digits, non-finite floats as their names.
const replacer = (_key, v) =>
  typeof v === 'bigint' ? v.toString() : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;

function encode(t) {
  if (t instanceof SparseTensor) {
    const { indices, dense_shape, dtype } = t.toJSON();
    return { indices, values: Array.from(t.values), dense_shape, dtype };
  }
  if (t instanceof Tensor) return { dense: t.toArray(), shape: t.shape, dtype: t.dtype };
  return t;
}

function statusOf(e) {
  if (e instanceof HttpError) return e.status;
  if (e instanceof ResourceExhaustedError) return 413;
  if (e instanceof InvalidArgumentError || e instanceof TypeError) return 400;
  return 500;
}

function reply(res, status, body) {
  const text = JSON.stringify(body, replacer);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function handle(req, res) {
  // Where the memory is, for the load generator's record.
  if (req.url === '/stats' && req.method === 'GET')
    return reply(res, 200, { ...process.memoryUsage(), ...rt.memory(), loopDelayMaxMs: loopDelay.max / 1e6 });
  if (req.url !== '/run') throw new HttpError(404, `no such path ${req.url}; POST /run`);
  if (req.method !== 'POST') throw new HttpError(405, `${req.method} /run: POST it`);
  if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) {
    throw new HttpError(415, 'the body must be application/json');
  }
  const { opId, args } = decode(await readBody(req));
  const outputs = rt.run(opId, args);
  const encoded = Object.fromEntries(Object.entries(outputs).map(([k, t]) => [k, encode(t)]));
  for (const t of Object.values(outputs)) t?.dispose?.();
  reply(res, 200, { outputs: encoded });
}

const server = http.createServer(
  { requestTimeout: 5000, headersTimeout: 5000, connectionsCheckingInterval: 500 },
  (req, res) => {
    handle(req, res).catch((e) => {
      // A client that went away mid-upload is owed nothing.
      if (e.clientGone || res.headersSent || res.destroyed) return;
      const status = statusOf(e);
      if (status >= 500) console.error(e);
      reply(res, status, { error: e instanceof HttpError ? 'HttpError' : e.name, message: e.message });
    });
  },
);
server.keepAliveTimeout = 30_000;

process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  rt.dispose();
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(JSON.stringify({ port: server.address().port, threads: rt.threads, maxBytes: MAX_BYTES }));
});
