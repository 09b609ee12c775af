// Small statistics for the benches: nearest-rank percentiles over a sample.

/** The p-th percentile (0–100) by nearest rank; the sample need not be sorted. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary {
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    n: values.length,
    p50: percentile(values, 50),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    mean: values.length ? sum / values.length : Number.NaN,
    max: values.length ? Math.max(...values) : Number.NaN,
  };
}
