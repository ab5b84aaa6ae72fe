/**
 * Pairwise precision and recall of a grouping against ground-truth labels: a predicted pair is two
 * listings sharing a dedup_key, a true pair two listings sharing a property id. Counted from group
 * sizes (n listings make n(n-1)/2 pairs), so a catalogue of millions costs one pass and three maps.
 */
export interface PairCounts {
  listings: number;
  truePairs: number;
  predictedPairs: number;
  correctPairs: number;
}

export interface PairScores extends PairCounts {
  precision: number;
  recall: number;
  f1: number;
}

export class PairCounter {
  private listings = 0;
  private readonly byLabel = new Map<string, number>();
  private readonly byKey = new Map<string, number>();
  private readonly byBoth = new Map<string, number>();

  /** One listing: its ground-truth label and its dedup_key (null: not grouped). */
  add(label: string, key: string | null): void {
    this.listings++;
    bump(this.byLabel, label);
    if (key === null) return;
    bump(this.byKey, key);
    bump(this.byBoth, `${key}\u0000${label}`);
  }

  scores(): PairScores {
    const counts: PairCounts = {
      listings: this.listings,
      truePairs: pairs(this.byLabel),
      predictedPairs: pairs(this.byKey),
      correctPairs: pairs(this.byBoth),
    };
    return { ...counts, ...scoresOf(counts) };
  }
}

export function scoresOf({ truePairs, predictedPairs, correctPairs }: PairCounts): { precision: number; recall: number; f1: number } {
  // No predicted pair: nothing wrong was said (precision 1); no true pair: nothing was missed (recall 1).
  const precision = predictedPairs === 0 ? 1 : correctPairs / predictedPairs;
  const recall = truePairs === 0 ? 1 : correctPairs / truePairs;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function pairs(counts: Map<string, number>): number {
  let total = 0;
  for (const n of counts.values()) total += (n * (n - 1)) / 2;
  return total;
}
