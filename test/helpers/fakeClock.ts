import { clock } from '../../nodes/shared/timing';

/** Replaces the transport's clock: sleeps return at once and move virtual time on. */
export function useFakeClock(startMs = Date.UTC(2026, 10, 22, 12, 0, 0)) {
	const original = { ...clock };
	const sleeps: number[] = [];
	let now = startMs;
	clock.sleep = async (ms: number) => {
		sleeps.push(ms);
		now += ms;
	};
	clock.now = () => now;
	clock.random = () => 0;
	return {
		sleeps,
		nowSeconds: () => Math.floor(now / 1000),
		advance: (ms: number) => {
			now += ms;
		},
		restore: () => Object.assign(clock, original),
	};
}
