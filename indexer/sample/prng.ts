/**
 * Seeded pseudo-random numbers for the sample generator. sfc32 (128-bit state) rather than
 * mulberry32 (32-bit state): every block of properties gets its own stream, seeded by (seed,
 * block), and with a 32-bit state millions of streams would overlap, copying one property's
 * text and figures onto another. Same seed, same numbers, so runs compare byte for byte.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** One stream per (seed, stream): different streams never share a state. */
  constructor(seed: number, stream = 0) {
    this.a = seed >>> 0;
    this.b = stream >>> 0;
    this.c = 0x9e3779b9;
    this.d = 1;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
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
