/** The gate benches' request: `n` items with a fixed mix of outcomes, as JSON text. */
export function gateCohortBody(n: number): string {
  const baseline: Record<string, boolean> = {};
  const candidate: Record<string, boolean> = {};
  for (let i = 0; i < n; i++) {
    const id = `item-${String(i).padStart(5, '0')}`;
    baseline[id] = i % 3 === 0;
    candidate[id] = i % 4 !== 0;
  }
  return JSON.stringify({ baseline, candidate });
}
