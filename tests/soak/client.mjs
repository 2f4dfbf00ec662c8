// How the soak test's requests travel: over Node's http client (keep-alive, optionally slow or chunked uploads), or
// over a raw socket for bodies that lie about their length and uploads the client abandons. Each resolves with
// { status, body } or { outcome } ('client abort', 'dropped', 'hang'); none rejects.
import http from 'node:http';
import net from 'node:net';

const HANG_MS = 20_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function httpSend(agent, port, send) {
  return new Promise((resolve) => {
    const headers = { 'content-type': send.type };
    if (!send.chunked) headers['content-length'] = Buffer.byteLength(send.body);
    const req = http.request({ agent, host: '127.0.0.1', port, method: send.method, path: send.path, headers });
    const timer = setTimeout(() => {
      resolve({ outcome: 'hang' });
      req.destroy();
    }, HANG_MS);
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', () => undefined);
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      resolve({ outcome: 'dropped', detail: e.code ?? e.message });
    });
    (async () => {
      if (send.slow || send.chunked) {
        // Five parts, 100 ms apart for a slow upload, back to back for a chunked one.
        const buf = Buffer.from(send.body);
        const step = Math.ceil(buf.length / 5) || 1;
        for (let i = 0; i < buf.length; i += step) {
          if (req.destroyed) return;
          req.write(buf.subarray(i, i + step));
          if (send.slow) await sleep(100);
        }
        req.end();
      } else req.end(send.body);
    })();
  });
}

/**
 * Writes `bytes` on a fresh connection and reads the first response's status line. `mode`: 'first' (answer the
 * first response), 'wait' (keep the connection open until the service answers), 'abort' (destroy it 10-50 ms later).
 */
export function rawSend(port, send) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ outcome: 'hang' }), HANG_MS);
    socket.on('connect', () => {
      socket.write(send.bytes);
      if (send.mode === 'abort') setTimeout(() => finish({ outcome: 'client abort' }), 10 + Math.random() * 40);
    });
    socket.on('data', (d) => {
      got += d.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1]);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(got.slice(0, end))?.[1] ?? 0);
      if (got.length >= end + 4 + length) finish({ status, body: got.slice(end + 4, end + 4 + length) });
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(send.mode === 'abort' ? { outcome: 'client abort' } : { outcome: 'dropped' }));
  });
}
