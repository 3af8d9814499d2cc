/**
 * How deep and how large a body given whole (Invoice JSON, an input item as the body) may be. The
 * service's bodies are a few levels deep and a few kilobytes; these bounds are far above any real
 * body and far below what would overflow a recursive reader or hold n8n for long. Checked before
 * anything recursive reads the body.
 */
export const INPUT_LIMITS = { depth: 32, characters: 1_000_000 } as const;

/** The JSON text's own size, checked before it is parsed. */
export function jsonTextProblem(text: string): string | undefined {
	if (text.length <= INPUT_LIMITS.characters) return undefined;
	return `${text.length} characters, more than the ${INPUT_LIMITS.characters} this node reads`;
}

/**
 * The first limit a parsed body breaks, in words naming it; undefined when it keeps both. A walk
 * with its own stack: a body nested 100,000 deep costs no call stack.
 */
export function bodyShapeProblem(value: unknown): string | undefined {
	const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
	let characters = 0;
	while (pending.length > 0) {
		const current = pending.pop()!;
		if (typeof current.value === 'string') characters += current.value.length;
		else if (current.value && typeof current.value === 'object') {
			if (current.depth >= INPUT_LIMITS.depth)
				return `nested more than ${INPUT_LIMITS.depth} levels deep; a body of the service is at most a few levels deep`;
			for (const [name, entry] of Object.entries(current.value)) {
				characters += name.length;
				pending.push({ value: entry, depth: current.depth + 1 });
			}
		}
		if (characters > INPUT_LIMITS.characters)
			return `more than ${INPUT_LIMITS.characters} characters of text, more than this node reads`;
	}
	return undefined;
}
