// Amounts are rounded on their magnitude so a returned premium (-x) rounds to exactly -(round x):
// half-up on the amount, as the description's "nearest cent" reads for refunds too.
function roundTo(value: number, decimals: number): number {
	const sign = value < 0 ? -1 : 1;
	// Exponent notation avoids the binary error that makes 1.005 * 100 = 100.49999.
	const shifted = Math.round(Number(`${Math.abs(value)}e${decimals}`));
	const result = sign * Number(`${shifted}e-${decimals}`);
	return result === 0 ? 0 : result;
}

export const roundCents = (value: number): number => roundTo(value, 2);
export const roundDollars = (value: number): number => roundTo(value, 0);
/** Removes float noise (0.1 + 0.2) from figures shown unrounded. */
export const clean = (value: number): number => roundTo(value, 6);

export const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

export function sameCents(a: number, b: number): boolean {
	return Math.abs(roundCents(a) - roundCents(b)) <= 0.01 + 1e-9;
}

export const money = (value: number): string => roundCents(value).toFixed(2);
