import type { z } from 'zod';

/** A zod path as the service writes field paths: `fees[1].type`. */
export function fieldPath(path: ReadonlyArray<string | number>): string {
	return path.reduce<string>(
		(text, part) =>
			typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part,
		'',
	);
}

function valueAt(input: unknown, path: ReadonlyArray<string | number>): unknown {
	return path.reduce<unknown>(
		(value, part) =>
			value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined,
		input,
	);
}

/**
 * Every zod issue as one "field: rule" line for `inputError`. `labels` renames top-level fields to
 * what the user sees in the node; a string that is too long says how long it was.
 */
export function zodIssueLines(
	error: z.ZodError,
	input: unknown,
	labels: Record<string, string> = {},
): string[] {
	return error.issues.map((issue) => {
		const [head, ...rest] = issue.path;
		const name = fieldPath([labels[String(head)] ?? String(head ?? ''), ...rest]);
		const value = valueAt(input, issue.path);
		const got =
			issue.code === 'too_big' && typeof value === 'string' ? ` (got ${value.length})` : '';
		return `${name}: ${issue.message}${got}`;
	});
}
