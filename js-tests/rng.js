// js-tests/rng.js: the tests' seeded generator (xorshift32), so that a failure replays from its seed. Also
// used by redis/test/.

// Numbers in [0, 1), the same sequence for the same seed (0 counts as 1).
export function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}
