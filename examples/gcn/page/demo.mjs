// The page: trains the karate-club GCN live on the backend picked, redrawing the graph (nodes filled with the
// predicted faction, ringed with the true one) and the loss per epoch. It reports to `window.__gcn` for its test.
// On webgpu every op runs on the GPU: TF.js on its webgpu backend, and sparse's webgpu backend on TF.js's device.
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { createRuntime, Runtime } from '@sparse/runtime';
import { createWebGpuBackend } from '@sparse/kernels-webgpu';
import { predict, train } from '../gcn.mjs';
import { karateProblem } from '../karate-gcn.mjs';
import { EDGES, FACTIONS, FACTION_NAMES, MEMBERS } from '../karate.mjs';
import { forceLayout } from './layout.mjs';

const COLORS = ['#2f6fdf', '#f08c1a'];
const positions = forceLayout(MEMBERS, EDGES);
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
if (params.has('backend')) $('backend').value = params.get('backend');
if (params.has('epochs')) $('epochs').value = params.get('epochs');

function drawGraph(predictions) {
  const c = $('graph');
  const g = c.getContext('2d');
  const at = ([x, y]) => [30 + x * (c.width - 60), 30 + y * (c.height - 60)];
  g.clearRect(0, 0, c.width, c.height);
  g.strokeStyle = '#c8c8c8';
  g.lineWidth = 1;
  for (const [a, b] of EDGES) {
    g.beginPath();
    g.moveTo(...at(positions[a]));
    g.lineTo(...at(positions[b]));
    g.stroke();
  }
  positions.forEach((p, i) => {
    const [x, y] = at(p);
    g.beginPath();
    g.arc(x, y, i === 0 || i === 33 ? 14 : 11, 0, 2 * Math.PI);
    g.fillStyle = predictions ? COLORS[predictions[i]] : '#bbb';
    g.fill();
    g.lineWidth = 3;
    g.strokeStyle = COLORS[FACTIONS[i]];
    g.stroke();
    g.fillStyle = '#fff';
    g.font = 'bold 10px system-ui';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(String(i), x, y);
  });
}

function drawLoss(losses, epochs) {
  const c = $('loss');
  const g = c.getContext('2d');
  const [left, right, top, bottom] = [48, c.width - 16, 24, c.height - 36];
  g.clearRect(0, 0, c.width, c.height);
  const max = Math.max(0.7, ...losses);
  g.strokeStyle = '#888';
  g.beginPath();
  g.moveTo(left, top);
  g.lineTo(left, bottom);
  g.lineTo(right, bottom);
  g.stroke();
  g.fillStyle = '#555';
  g.font = '12px system-ui';
  g.textAlign = 'center';
  g.fillText('epoch', (left + right) / 2, c.height - 8);
  g.fillText(`loss per epoch (softmax cross-entropy)`, (left + right) / 2, 14);
  g.textAlign = 'right';
  for (const v of [0, max / 2, max]) g.fillText(v.toFixed(2), left - 6, bottom - (v / max) * (bottom - top) + 4);
  g.textAlign = 'center';
  for (const e of [0, Math.round(epochs / 2), epochs])
    g.fillText(String(e), left + (e / epochs) * (right - left), bottom + 16);
  g.strokeStyle = '#c0392b';
  g.lineWidth = 2;
  g.beginPath();
  losses.forEach((l, e) => {
    const x = left + (e / epochs) * (right - left);
    const y = bottom - (l / max) * (bottom - top);
    if (e === 0) g.moveTo(x, y);
    else g.lineTo(x, y);
  });
  g.stroke();
}

/**
 * The sparse runtime for the backend picked, and what the page says it runs on. webgpu: TF.js on its webgpu backend
 * and sparse's webgpu backend on TF.js's GPUDevice, so tensors pass between them as GPU buffers; the others beside
 * TF.js's cpu backend.
 */
async function runtimeFor(backend) {
  if (backend !== 'webgpu') {
    await tf.setBackend('cpu');
    return { runtime: await createRuntime({ backend }), device: 'TF.js cpu' };
  }
  if (!navigator.gpu) throw new Error('this browser has no WebGPU (navigator.gpu): pick wasm or js');
  if (!(await tf.setBackend('webgpu'))) throw new Error("TF.js's webgpu backend did not start");
  const gpu = await createWebGpuBackend({ device: tf.backend().device });
  return { runtime: new Runtime(gpu), device: `TF.js webgpu, one GPU device: ${gpu.adapter}` };
}

let running = false;
async function run() {
  if (running) return;
  running = true;
  const backend = $('backend').value;
  const epochs = Number($('epochs').value) || 200;
  window.__gcn = { done: false, backend };
  try {
    const { runtime, device } = await runtimeFor(backend);
    const problem = karateProblem();
    const losses = [];
    const started = performance.now();
    let predictions = await predict(problem.model, problem.adjacency, problem.x, runtime);
    drawGraph(predictions);
    const result = await train({
      ...problem,
      epochs,
      runtime,
      onEpoch: async ({ epoch, loss }) => {
        losses.push(loss);
        if (epoch % 5 === 4 || epoch === epochs - 1) {
          predictions = await predict(problem.model, problem.adjacency, problem.x, runtime);
          drawGraph(predictions);
          drawLoss(losses, epochs);
          $('status').textContent =
            `epoch ${epoch + 1}/${epochs} · loss ${loss.toFixed(4)} · backend ${runtime.backend} · ${device}`;
          // Let the page paint.
          await new Promise((resolve) => requestAnimationFrame(resolve));
        }
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const right = result.predictions.filter((c, i) => c === FACTIONS[i]).length;
    drawGraph(result.predictions);
    drawLoss(result.losses, epochs);
    $('status').textContent =
      `trained ${epochs} epochs in ${seconds.toFixed(1)} s on ${runtime.backend} (${device}) · final loss ` +
      `${result.losses.at(-1).toFixed(4)} · training accuracy ${(result.accuracy * 100).toFixed(1)}% ` +
      `(${right}/${MEMBERS} in their faction: ${FACTION_NAMES.join(' / ')})`;
    tf.dispose([problem.x, problem.model.w1, problem.model.w2]);
    window.__gcn = {
      done: true,
      backend: runtime.backend,
      device,
      tfBackend: tf.getBackend(),
      accuracy: result.accuracy,
      losses: result.losses,
      seconds,
    };
  } catch (e) {
    $('status').textContent = `failed: ${e?.message ?? e}`;
    window.__gcn = { done: true, error: String(e?.stack ?? e) };
  } finally {
    running = false;
  }
}

$('train').addEventListener('click', run);
drawGraph();
run();
