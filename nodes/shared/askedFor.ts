/**
 * Whether a reply about one invoice is about the invoice asked for. A read or an update by id is
 * answered with that invoice; a reply that carries another id (a cache or proxy answering for
 * another request, a service bug) is refused, never taken as the asked invoice's state.
 */
import type { IDataObject } from 'n8n-workflow';

const idForm = (value: unknown): string | undefined => {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && /^\s*\d+\s*$/.test(value))
		return value.trim().replace(/^0+(?=\d)/, '');
	return undefined;
};

/**
 * What is wrong with `data` as the reply about invoice `asked` (undefined when nothing is): not
 * an invoice at all, or an invoice with another id. A reply that shows no id is taken as the
 * asked one's (readers are tolerant of missing fields).
 */
export function replyIdProblem(data: unknown, asked: string | number): string | undefined {
	if (!data || typeof data !== 'object' || Array.isArray(data))
		return `it holds no invoice (its data is ${Array.isArray(data) ? 'a list' : String(data === undefined ? 'missing' : data === null ? 'null' : typeof data)})`;
	const id = (data as IDataObject).id;
	if (id === undefined || id === null) return undefined;
	const shown = idForm(id);
	if (shown !== undefined && shown === idForm(asked)) return undefined;
	return `it describes invoice ${String(id).slice(0, 40)}, not invoice ${String(asked)} asked for`;
}
