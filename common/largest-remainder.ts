/**
 * Splitting an amount in cents over parts in proportion to their weights, to the cent, by the largest
 * remainder (Hamilton) method: each part gets the floor of its exact share (total × weight / Σ weights),
 * then the cents left over go one each to the parts with the largest remainders; equal remainders go to
 * the earlier part. Deterministic (the same input always splits the same way), exact (integer and BigInt
 * arithmetic, no float), and the shares always sum to the total. A share is never more than a cent above
 * its exact share, so when the total is at most the sum of the weights no part gets more than its weight:
 * a discount spread over lines never makes a line negative.
 *
 * Callers: the ticket pricing rule (ticket-pricing.ts) for the ticket discount over the lines and a tax
 * class's tax over its lines.
 */
export function allocateCents(totalCents: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0)
    throw new RangeError('the amount to split is zero or positive integer cents');
  for (const w of weights)
    if (!Number.isSafeInteger(w) || w < 0) throw new RangeError('a weight is zero or a positive integer');
  const whole = weights.reduce((s, w) => s + BigInt(w), 0n);
  if (whole === 0n) {
    if (totalCents !== 0) throw new RangeError('an amount cannot be split over nothing');
    return weights.map(() => 0);
  }
  const total = BigInt(totalCents);
  const floors = weights.map((w) => (total * BigInt(w)) / whole);
  const remainders = weights.map((w, i) => total * BigInt(w) - (floors[i] ?? 0n) * whole);
  let left = total - floors.reduce((s, f) => s + f, 0n);
  // Largest remainder first; on a tie the earlier part (a stable order, so the split is deterministic).
  const order = weights.map((_, i) => i);
  order.sort((a, b) => {
    const ra = remainders[a] ?? 0n;
    const rb = remainders[b] ?? 0n;
    return ra === rb ? a - b : ra > rb ? -1 : 1;
  });
  const shares = floors.slice();
  for (const i of order) {
    if (left === 0n) break;
    shares[i] = (shares[i] ?? 0n) + 1n;
    left -= 1n;
  }
  return shares.map(Number);
}
