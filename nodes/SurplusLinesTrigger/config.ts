import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { inputError } from '../shared/errors';

export type EventKind = 'invoiceStatus' | 'filingState' | 'documentFetchStatus' | 'newTransaction';

export interface WatchUnit {
	/** `i:<invoice id>` or `p:<policy number>`: the key of its memory. */
	key: string;
	kind: 'invoice' | 'policy';
	value: string;
	/** Position in the user's lists: breaks ties in the round-robin order. */
	index: number;
}

export interface TriggerConfig {
	events: Set<EventKind>;
	/** Target values per event kind; empty: every value. */
	filters: { invoiceStatus: string[]; filingState: string[]; documentFetchStatus: string[] };
	units: WatchUnit[];
	emitCurrentState: boolean;
	/** Share of the key's hourly limit that polling may spend, 0..1. */
	share: number;
	settledCheck: 'daily' | 'never';
	/** Days without a change after which an item counts as settled; 0: never by age. */
	settledAfterDays: number;
}

function strings(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Splits a pasted list: invoice ids on commas, semicolons or whitespace; policy numbers on commas, semicolons or line breaks. */
function splitList(raw: unknown, separators: RegExp): string[] {
	const seen = new Set<string>();
	for (const part of String(raw ?? '').split(separators)) {
		const value = part.trim();
		if (value) seen.add(value);
	}
	return [...seen];
}

export function readConfig(ctx: IPollFunctions): TriggerConfig {
	const invoiceIds = splitList(ctx.getNodeParameter('invoiceIds', ''), /[\s,;]+/);
	const policyNumbers = splitList(ctx.getNodeParameter('policyNumbers', ''), /[\n\r,;]+/);
	const options = ctx.getNodeParameter('options', {}) as IDataObject;

	const problems: string[] = [];
	const badIds = invoiceIds.filter((id) => !/^\d+$/.test(id));
	if (badIds.length)
		problems.push(
			`invoiceIds: an invoice ID is a whole number (got ${badIds.map((b) => `"${b}"`).join(', ')})`,
		);
	if (invoiceIds.length + policyNumbers.length === 0) {
		problems.push(
			'invoiceIds, policyNumbers: enter at least one invoice ID or policy number to watch',
		);
	}
	const events = new Set(strings(ctx.getNodeParameter('events', [])) as EventKind[]);
	if (events.size === 0) problems.push('events: choose at least one event');
	const sharePercent = typeof options.budgetShare === 'number' ? options.budgetShare : 25;
	if (!(sharePercent > 0 && sharePercent <= 100))
		problems.push(`options.budgetShare: must be above 0 and at most 100 (got ${sharePercent})`);
	if (problems.length)
		throw inputError(ctx, problems, { summary: `Trigger settings: ${problems[0]}` });

	// Policies first: one call covers every transaction of a policy.
	const units: WatchUnit[] = [
		...policyNumbers.map((value) => ({ key: `p:${value}`, kind: 'policy' as const, value })),
		...invoiceIds.map((value) => ({
			key: `i:${Number(value)}`,
			kind: 'invoice' as const,
			value: String(Number(value)),
		})),
	].map((unit, index) => ({ ...unit, index }));

	return {
		events,
		filters: {
			invoiceStatus: strings(ctx.getNodeParameter('statusValues', [])),
			filingState: strings(ctx.getNodeParameter('filingValues', [])),
			documentFetchStatus: strings(ctx.getNodeParameter('documentValues', [])),
		},
		units,
		emitCurrentState: options.emitCurrentState === true,
		share: sharePercent / 100,
		settledCheck: options.settledCheck === 'never' ? 'never' : 'daily',
		settledAfterDays:
			typeof options.settledAfterDays === 'number' && options.settledAfterDays >= 0
				? options.settledAfterDays
				: 30,
	};
}
