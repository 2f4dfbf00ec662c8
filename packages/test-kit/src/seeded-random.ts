// Seeded random numbers for tests: the same inputs on every run, so a failure can be replayed.

/** mulberry32: `next()` uniform in [0, 1), `int(n)` a whole number in [0, n). */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n) };
}

export type Rng = ReturnType<typeof rng>;
