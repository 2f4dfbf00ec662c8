// The chart of the sparse/dense ratio by density, per backend, as hand-written SVG: a log-scale y axis, one
// series per backend (and TensorFlow's published ratios, and scipy ÷ numpy), the geometric mean over TF's 12
// (n, m, k) points as a dot and their range as a whisker; below the dashed line at 1, sparse is faster.

const COLORS = { tf: '#6b7280', js: '#d97706', wasm: '#2563eb', gpu: '#7c3aed', scipy: '#059669' };
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function ratioChart(allSeries, { title, subtitle }) {
  const series = allSeries.filter((s) => s.byDensity.some((d) => d.geomean)); // a peer that did not run has no series
  const W = 760;
  const H = 440;
  const M = { left: 64, right: 220, top: 58, bottom: 56 };
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const vals = series.flatMap((s) => s.byDensity.flatMap((d) => [d.min, d.max, d.geomean])).filter((x) => x > 0);
  if (!vals.length) vals.push(0.1, 10);
  const lo = Math.floor(Math.log10(Math.min(...vals, 0.5)));
  const hi = Math.ceil(Math.log10(Math.max(...vals, 2)));
  const y = (v) => M.top + ph - ((Math.log10(v) - lo) / (hi - lo)) * ph;
  const densities = allSeries[0]?.byDensity.map((d) => d.density) ?? [];
  const slot = pw / Math.max(1, densities.length);
  const x = (i, si) =>
    M.left + slot * (i + 0.5) + (si - (series.length - 1) / 2) * Math.min(14, slot / (series.length + 1));
  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="${M.left}" y="24" font-size="15" font-weight="600" fill="#111827">${esc(title)}</text>`);
  out.push(`<text x="${M.left}" y="42" fill="#4b5563">${esc(subtitle)}</text>`);
  // Grid lines and y ticks: 1, 2, 5 per decade.
  for (let e = lo; e <= hi; e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (Math.log10(v) > hi + 1e-9) continue;
      const yy = y(v).toFixed(1);
      out.push(
        `<line x1="${M.left}" x2="${M.left + pw}" y1="${yy}" y2="${yy}" stroke="${m === 1 ? '#d1d5db' : '#f3f4f6'}"/>`,
      );
      out.push(
        `<text x="${M.left - 8}" y="${yy}" dy="4" text-anchor="end" fill="#374151">${v >= 1 ? v : Number(v.toPrecision(1))}</text>`,
      );
    }
  }
  const y1 = y(1).toFixed(1);
  out.push(`<line x1="${M.left}" x2="${M.left + pw}" y1="${y1}" y2="${y1}" stroke="#111827" stroke-dasharray="6 4"/>`);
  out.push(`<rect x="${M.left}" y="${M.top}" width="${pw}" height="${ph}" fill="none" stroke="#9ca3af"/>`);
  densities.forEach((d, i) => {
    out.push(
      `<text x="${(M.left + slot * (i + 0.5)).toFixed(1)}" y="${M.top + ph + 20}" text-anchor="middle" fill="#374151">${d * 100}%</text>`,
    );
  });
  out.push(`<text x="${M.left + pw / 2}" y="${H - 14}" text-anchor="middle" fill="#111827">density of A</text>`);
  out.push(
    `<text transform="translate(18 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle" fill="#111827">dt(sparse) / dt(dense), log scale</text>`,
  );
  series.forEach((s, si) => {
    const c = COLORS[s.key] ?? '#000000';
    const pts = s.byDensity.map((d, i) => (d.geomean ? [x(i, si), y(d.geomean)] : undefined));
    const path = pts
      .filter(Boolean)
      .map(([px, py], j) => `${j ? 'L' : 'M'}${px.toFixed(1)},${py.toFixed(1)}`)
      .join(' ');
    if (path)
      out.push(
        `<path d="${path}" fill="none" stroke="${c}" stroke-width="1.5" opacity="0.6"${s.key === 'tf' ? ' stroke-dasharray="3 3"' : ''}/>`,
      );
    s.byDensity.forEach((d, i) => {
      if (!d.geomean) return;
      const px = x(i, si).toFixed(1);
      out.push(
        `<line x1="${px}" x2="${px}" y1="${y(d.min).toFixed(1)}" y2="${y(d.max).toFixed(1)}" stroke="${c}" stroke-width="2"/>`,
      );
      out.push(
        `<circle cx="${px}" cy="${y(d.geomean).toFixed(1)}" r="4.5" fill="${s.key === 'tf' ? '#ffffff' : c}" stroke="${c}" stroke-width="2"><title>${esc(s.label)}, ${d.density * 100}%: ${d.geomean.toPrecision(3)} (${d.min.toPrecision(3)}–${d.max.toPrecision(3)}, ${d.points} points)</title></circle>`,
      );
    });
  });
  // Legend.
  const lx = M.left + pw + 18;
  series.forEach((s, si) => {
    const c = COLORS[s.key] ?? '#000000';
    const ly = M.top + 10 + si * 24;
    out.push(
      `<circle cx="${lx + 6}" cy="${ly}" r="4.5" fill="${s.key === 'tf' ? '#ffffff' : c}" stroke="${c}" stroke-width="2"/>`,
    );
    out.push(`<text x="${lx + 18}" y="${ly}" dy="4" fill="#111827">${esc(s.label)}</text>`);
  });
  const ny = M.top + 10 + series.length * 24 + 8;
  for (const [j, line] of [
    'dot: geometric mean over',
    "TF's 12 (n, m, k) points;",
    'whisker: their min–max.',
    'dashed line: sparse = dense;',
    'below it, sparse is faster.',
  ].entries()) {
    out.push(`<text x="${lx}" y="${ny + j * 16}" fill="#4b5563">${esc(line)}</text>`);
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
