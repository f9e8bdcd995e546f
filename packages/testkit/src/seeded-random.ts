/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same fault moments, the
 * same load and the same proxy faults, so a failing run can be replayed with its printed seed.
 */
export interface Random {
  /** in [0, 1) */
  next(): number;
  /** an integer in [min, max] */
  int(min: number, max: number): number;
  /** true with probability p */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** a new array in random order */
  shuffle<T>(items: readonly T[]): T[];
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new RangeError("pick from no items");
      return items[int(0, items.length - 1)]!;
    },
    shuffle: (items) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy;
    },
  };
}

/** The seed a run uses: the given one (the `variable`'s value, decimal) or a fresh random 32-bit one. */
export function seedOf(given: string | undefined, fresh: () => number = () => Math.floor(Math.random() * 2 ** 32), variable = "FAULTS_SEED"): number {
  if (given === undefined || given === "") return fresh();
  if (!/^\d+$/.test(given) || Number(given) >= 2 ** 32) throw new RangeError(`${variable} must be an integer from 0 to 4294967295, got ${given}`);
  return Number(given);
}
