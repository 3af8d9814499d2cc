/**
 * Only the operations read node parameters; the stages after them take values (docs/development.md,
 * "The filing core's stages"). This suite reads every module under nodes/ and fails when one
 * outside n8n's edge:
 *
 * - names an n8n context type (IExecuteFunctions, IPollFunctions, ILoadOptionsFunctions, or the
 *   package's ApiContext union of them);
 * - reads a node parameter or the input items from n8n (getNodeParameter, getInputData) or
 *   imports the parameter readers of shared/params.ts;
 * - keeps a module-level store (Map, WeakMap, WeakSet) keyed by a context or its input: a store
 *   whose get/set/has/add takes `ctx`, `this`, `context` or the input items, or any WeakMap or
 *   WeakSet keyed by `object` that is not one of the explained stores below.
 *
 * n8n's edge, where these are the point: the operations (`actions/`), the node classes
 * (`*.node.ts`), the trigger's poll (`SurplusLinesTrigger/`), the editor's look-ups (`methods/`),
 * the transport and what turns the stages' service interface into it (`shared/transport.ts`,
 * `shared/invoiceService.ts`, `shared/invoiceSource.ts` (the listings' page reader and the key's
 * budget for the look before filing), `shared/router.ts`, `shared/params.ts`, `shared/context.ts`,
 * `shared/credentials.ts`: the credential, read once per execution), and the Document node's
 * download (`fetchFile.ts`: its own HTTP through n8n's helpers, to a signed link the transport
 * does not serve). Their stores keyed by the context (the transport's decrypted credential, the
 * credential per execution, whether a run is a tool call, params.ts's parameters read once) are
 * caches of what n8n gives, not what a run learned. Stores keyed by something else are left alone
 * and not flagged: the checks' readers by schema (sheet/validation.ts), the key's budget by its
 * fingerprint (shared/rateLimit.ts), what an error says of itself (EXPLAINED_STORES below).
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative, sep } from 'path';

const ROOT = join(__dirname, '..', '..');
const NODES = join(ROOT, 'nodes');

/** n8n's edge: the modules that may see the context (see above). */
const EDGE: RegExp[] = [
	/^nodes\/[^/]+\/actions\//,
	/\.node\.ts$/,
	/^nodes\/SurplusLinesTrigger\//,
	/^nodes\/(shared|SurplusLinesInvoice)\/methods\//,
	/^nodes\/shared\/(transport|invoiceService|invoiceSource|router|params|context|credentials)\.ts$/,
	/^nodes\/SurplusLinesDocument\/fetchFile\.ts$/,
];

/**
 * Module-level stores keyed by `object` that are not per-run state: each is keyed by an error
 * object (what that error says of itself: the row it stands for, whether anything was filed).
 */
const EXPLAINED_STORES: Record<string, string[]> = {
	'nodes/shared/errors.ts': ['ROWS'],
	'nodes/filing/fileInvoice.ts': ['NOTHING_FILED', 'MAYBE_FILED'],
};

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const CONTEXT_TYPES = /\b(IExecuteFunctions|IPollFunctions|ILoadOptionsFunctions|ApiContext)\b/;
const PARAMETER_READS = /\.(getNodeParameter|getInputData)\s*\(/;
const PARAMS_IMPORT = /from\s+'[./]*(shared\/)?params'/;
const STORE = /^(?:export\s+)?const\s+(\w+)\s*=\s*new\s+(WeakMap|WeakSet|Map)\s*<([^,>]+)/gm;
const CONTEXT_KEY = /^(ctx|this|context|this\.ctx|run\.ctx|input|items|\w+\.getInputData\(\))\b/;

/** What is wrong with one module's text (`path`: relative to the repository, with /). */
export function violations(path: string, text: string): string[] {
	const found: string[] = [];
	const type = CONTEXT_TYPES.exec(text);
	if (type) found.push(`names the n8n context type ${type[1]}`);
	const read = PARAMETER_READS.exec(text);
	if (read) found.push(`reads from n8n (${read[1]})`);
	if (PARAMS_IMPORT.test(text)) found.push('imports the node parameter readers (shared/params.ts)');
	for (const [, name, kind, key] of text.matchAll(STORE)) {
		const uses = [...text.matchAll(new RegExp(`\\b${name}\\.(?:get|set|has|add|delete)\\(([^,)]*)`, 'g'))];
		const keyedByContext = uses.some(([, first]) => CONTEXT_KEY.test(first.trim()));
		const byObject = kind !== 'Map' && key.trim() === 'object';
		if (keyedByContext || (byObject && !EXPLAINED_STORES[path]?.includes(name)))
			found.push(`keeps a module-level ${kind} (${name}) keyed by a context or its input`);
	}
	return found;
}

const modules = sources(NODES).map((file) => ({
	path: relative(ROOT, file).split(sep).join('/'),
	text: readFileSync(file, 'utf8'),
}));
const atEdge = (path: string) => EDGE.some((edge) => edge.test(path));

describe('only the operations see n8n: the stages take values', () => {
	it('no module outside n8n’s edge names the context, reads a parameter or keeps a store keyed by the context', () => {
		const wrong = modules
			.filter(({ path }) => !atEdge(path))
			.flatMap(({ path, text }) => violations(path, text).map((why) => `${path}: ${why}`));
		expect(wrong).toEqual([]);
	});

	it('the check finds each kind of violation (it can fail)', () => {
		const stage = 'nodes/filing/example.ts';
		expect(violations(stage, "import type { IExecuteFunctions } from 'n8n-workflow';")).toHaveLength(1);
		expect(violations(stage, "const x = ctx.getNodeParameter('options', 0, {});")).toHaveLength(1);
		expect(violations(stage, "const items = ctx.getInputData();")).toHaveLength(1);
		expect(violations(stage, "import { itemParameter } from '../shared/params';")).toHaveLength(1);
		expect(
			violations(stage, 'const SEEN = new WeakMap<object, number>();\nSEEN.set(key, 1);'),
		).toHaveLength(1);
		expect(
			violations(stage, 'const SEEN = new Map<string, number>();\nSEEN.set(ctx, 1);'),
		).toHaveLength(1);
		expect(violations(stage, 'const NAMES = new Map<string, number>();\nNAMES.set(name, 1);')).toEqual([]);
		expect(violations('nodes/shared/errors.ts', 'const ROWS = new WeakMap<object, IDataObject>();')).toEqual([]);
		expect(atEdge('nodes/SurplusLinesInvoice/actions/invoice/create.operation.ts')).toBe(true);
		expect(atEdge('nodes/sheet/input.ts')).toBe(false);
	});
});
