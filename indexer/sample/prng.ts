/**
 * Seeded pseudo-random numbers for the sample generator: mulberry32, small and fast, so the same
 * seed always yields the same catalogue (tests and benchmarks compare runs byte for byte).
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** 32 random bits as an unsigned integer. */
  bits(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** Roughly normal (sum of three uniforms), mean 0 and standard deviation 1. */
  normal(): number {
    return (this.next() + this.next() + this.next() - 1.5) * 2;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks from `[item, weight]` pairs. */
  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of pairs) total += weight;
    let draw = this.next() * total;
    for (const [item, weight] of pairs) {
      draw -= weight;
      if (draw < 0) return item;
    }
    return pairs[pairs.length - 1][0];
  }

  /** `count` distinct items of `items`, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    const out: T[] = [];
    for (let i = 0; i < count && copy.length > 0; i++) {
      out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0]);
    }
    return out;
  }

  /** `length` lowercase hexadecimal characters. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += this.bits().toString(16).padStart(8, '0');
    return out.slice(0, length);
  }
}
