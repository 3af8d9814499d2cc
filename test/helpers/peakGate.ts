/**
 * Counted reservations for a fake server: replies are held until a given number of requests is in
 * flight at once, so a test that asserts a peak ("100 in flight") sees it however slowly the
 * machine sends them. Replies on real timers alone would let early replies come back before the
 * last requests go out on a loaded machine, and the peak seen would be lower by chance.
 *
 * `targets` are the peaks of successive phases (e.g. [25, 200]: 25 while the budget is unknown,
 * then 200 once a reply told it). In a phase every arriving reply is held; once `inFlight()`
 * reaches the phase's target, the gate waits `settleMs` (a request over the target would arrive
 * then and show in the peak) and releases every held reply. After the last phase replies go
 * at once. A phase whose target is never reached is released after `fallbackMs`, so a node that
 * sends too few fails its assertion instead of hanging the test.
 */
export function peakGate(targets: number[], inFlight: () => number, { settleMs = 50, fallbackMs = 10_000 } = {}) {
	let phase = 0;
	let held: Array<() => void> = [];
	let settling: NodeJS.Timeout | undefined;
	let fallback: NodeJS.Timeout | undefined;
	const release = () => {
		clearTimeout(settling);
		clearTimeout(fallback);
		settling = fallback = undefined;
		phase++;
		const replies = held;
		held = [];
		for (const reply of replies) reply();
	};
	return {
		/** Call on each arrival, after counting it in flight; `reply` sends the answer. */
		hold(reply: () => void): void {
			if (phase >= targets.length) {
				reply();
				return;
			}
			held.push(reply);
			fallback ??= setTimeout(release, fallbackMs);
			if (!settling && inFlight() >= targets[phase]) settling = setTimeout(release, settleMs);
		},
		/** Clears the timers (call after the run). */
		close(): void {
			clearTimeout(settling);
			clearTimeout(fallback);
		},
	};
}
