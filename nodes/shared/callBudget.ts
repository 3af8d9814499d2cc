/**
 * A key's hourly call budget split over a schedule: the trigger's polls and the Invoice node's
 * watch-list looks spend it the same way (limit × share ÷ runs per hour).
 */
import type { Tier } from './credentials';
import { HOURLY_CALL_LIMITS } from './rules';

export interface Budget {
	/** Calls per hour the key may make (X-RateLimit-Limit, else the tier's documented limit). */
	limit: number;
	limitSource: 'headers' | 'tier';
	/** Budget Share, 0..1. */
	share: number;
	pollsPerHour: number;
	/** What the share allows: floor(limit × share), at least 1. */
	callsPerHour: number;
	/** floor(limit × share ÷ polls per hour), at least 1. */
	callsPerPoll: number;
	/**
	 * The schedule polls more often than even 1 call a poll allows (a schedule in seconds): polls
	 * read at most `callsPerHour` calls an hour, spaced out, and the polls in between read nothing.
	 */
	paced: boolean;
	/** Polls an hour that read: every poll, or `callsPerHour` when paced. */
	readsPerHour: number;
}

export function computeBudget(
	tier: Tier,
	headerLimit: number | undefined,
	share: number,
	perHour: number,
): Budget {
	const limit = headerLimit && headerLimit > 0 ? headerLimit : HOURLY_CALL_LIMITS[tier];
	const callsPerHour = Math.max(1, Math.floor(limit * share));
	const paced = perHour > callsPerHour;
	return {
		limit,
		limitSource: headerLimit && headerLimit > 0 ? 'headers' : 'tier',
		share,
		pollsPerHour: perHour,
		callsPerHour,
		callsPerPoll: Math.max(1, Math.floor((limit * share) / perHour)),
		paced,
		readsPerHour: paced ? callsPerHour : perHour,
	};
}


/** "14.4 seconds", "5 minutes", "1.5 hours", "3 days": a span as a person would say it. */
export function describeSpan(seconds: number): string {
	const [value, unit] =
		seconds < 90
			? [seconds, 'second']
			: seconds < 90 * 60
				? [seconds / 60, 'minute']
				: seconds < 48 * 3600
					? [seconds / 3600, 'hour']
					: [seconds / 86400, 'day'];
	const rounded = Math.round(value * 10) / 10;
	return `${rounded} ${unit}${rounded === 1 ? '' : 's'}`;
}

