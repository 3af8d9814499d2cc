/**
 * A watched invoice leaves the list as gone only when two looks in a row hear the service's own
 * "not found" (a 404 in its envelope with code NOT_FOUND). The first is remembered in the row's
 * state as a tag after its first three parts (`…|notfound`, beside a reminder's `r=` tag), which the state's reader ignores and the next reading of
 * the invoice drops; the second settles the row. A look in which every read was such a 404 (a key
 * of the other environment, test or live, or of another account) settles and marks nothing.
 */
const NOT_FOUND_PART = 'notfound';

/** Whether a look before this one already heard the service say the invoice is not found. */
export function wasNotFound(state: string): boolean {
	return state.split('|').slice(3).includes(NOT_FOUND_PART);
}

/** The row's state with the first "not found" remembered (its parts and a reminder's tag kept as they are). */
export function markNotFound(state: string): string {
	const [s = '', f = '', docs = '?', ...tags] = state.split('|');
	const kept = tags.filter((tag) => tag !== NOT_FOUND_PART);
	return [s, f, docs, ...kept, NOT_FOUND_PART].join('|');
}

export const NOT_FOUND_ONCE = (invoiceId: number) =>
	`The service answered that invoice ${invoiceId} is not found. It stays on the watch list: it leaves it only if the next look hears the same.`;

export const EVERY_READ_NOT_FOUND = (count: number) =>
	`Every invoice this look read (${count}) was answered "not found", so none was taken as gone and nothing was settled: the credential's key may be of the other environment (test or live) or of another account than the one that filed them. Check the API key in the credential.`;
