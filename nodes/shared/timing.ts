import { sleep } from 'n8n-workflow';

/**
 * The transport's only view of time. Tests swap these functions to make waits instant and the
 * clock controllable; nodes never touch them.
 */
export const clock = {
	sleep: async (ms: number): Promise<void> => await sleep(ms),
	now: (): number => Date.now(),
	random: (): number => Math.random(),
};
