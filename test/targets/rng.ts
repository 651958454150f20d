/**
 * Deterministic pseudo-random numbers for the scripted targets tests
 * (mulberry32): the same seed gives the same script on every run and machine,
 * so a failing turn can be replayed.
 *
 * @example
 * const random = rng(42);
 * random(); // → a number in [0, 1), the same on every run
 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
