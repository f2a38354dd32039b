/* global setTimeout */
// Small statistics and markdown helpers.

/** The p-th percentile (0-100) of `values`, nearest rank. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

/** The median (the mean of the two middle values for an even count). */
export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Formats a number with `digits` decimals ('n/a' for missing values). */
export function num(value, digits = 1) {
  if (value === undefined || value === null || Number.isNaN(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `value / reference` as `1.23x`. */
export function ratio(value, reference) {
  if (!(reference > 0) || value === undefined || Number.isNaN(value)) return 'n/a';
  return `${(value / reference).toFixed(2)}x`;
}

/** A markdown table; every column but the first is right-aligned unless `left` is set. */
export function table(headers, rows, { left = false } = {}) {
  const align = headers.map((_, i) => (i === 0 || left ? '---' : '---:'));
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(align), ...rows.map(line)].join('\n');
}

/** Runs `task(workerIndex, callIndex)` `total` times over `workers` concurrent loops. */
export async function runConcurrent(workers, total, task) {
  let next = 0;
  const loop = async (worker) => {
    while (next < total) {
      const index = next;
      next += 1;
      await task(worker, index);
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, worker) => loop(worker)));
}

/** Rotates `items` by `round` so that no system always runs first. */
export const rotate = (items, round) => items.map((_, i) => items[(i + round) % items.length]);

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
