/**
 * The bench's workflows: a Manual Trigger, then branches that each start with a Code node making
 * the rows and end with the node measured. The package's node and n8n's HTTP Request node doing
 * the same calls sit in the same workflow, so one execution measures both.
 */
import { CREDENTIALS } from './stage';

export interface NodeJson {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	onError?: string;
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: NodeJson[];
	connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }>;
	settings: { executionOrder: 'v1' };
}

type Step = Omit<NodeJson, 'id' | 'position'>;

/** Start → each branch's steps in a row; branches run one after another, top to bottom. */
export function workflow(id: string, branches: Step[][]): WorkflowJson {
	const nodes: NodeJson[] = [
		{ id: `${id}-start`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
	];
	const connections: WorkflowJson['connections'] = { Start: { main: [[]] } };
	branches.forEach((steps, b) => {
		let previous = 'Start';
		steps.forEach((step, s) => {
			nodes.push({ ...step, id: `${id}-${b}-${s}`, position: [240 * (s + 1), 300 * b] });
			connections[previous] ??= { main: [[]] };
			connections[previous].main[0].push({ node: step.name, type: 'main', index: 0 });
			previous = step.name;
		});
	});
	return { id, name: `Bench: ${id}`, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** A Code node returning `count` items made by `row(i)` (JavaScript source of an arrow function). */
export function rows(name: string, count: number, row: string): Step {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: `const row = ${row};\nreturn Array.from({ length: ${count} }, (_, i) => ({ json: row(i) }));` },
	};
}

/** Spreadsheet-like invoice rows, one New transaction per policy `<prefix>-<i>`. */
export const invoiceRow = (prefix: string) =>
	`(i) => ({ policy_number: '${prefix}-' + i, insured_name: 'Insured ' + i, state_code: 'TX', net_premium: 1000 + i, effective_date: '2026-01-01', expiration_date: '2027-01-01' })`;

export const estimateRow = `(i) => ({ state: 'TX', premium: 1000 + i, policy_fees: 100, effective_date: '2026-01-01' })`;

const PACKAGE = 'n8n-nodes-surplus-lines';
const continueOnError = { onError: 'continueRegularOutput' };

export function invoiceNode(name: string, parameters: Record<string, unknown>, key: 't2' | 't3' | 'warm' = 't2'): Step {
	return {
		name,
		type: `${PACKAGE}.surplusLinesInvoice`,
		typeVersion: 1,
		parameters: { resource: 'invoice', ...parameters },
		credentials: { t2: CREDENTIALS.packageT2, t3: CREDENTIALS.packageT3, warm: CREDENTIALS.packageWarm }[key],
		...continueOnError,
	};
}

export function estimateNode(name: string, warm = false): Step {
	return {
		name,
		type: `${PACKAGE}.surplusLinesCalculator`,
		typeVersion: 1,
		parameters: {
			resource: 'tax',
			operation: 'estimate',
			state: '={{ $json.state }}',
			premium: '={{ $json.premium }}',
			policyFees: '={{ $json.policy_fees }}',
			effectiveDate: '={{ $json.effective_date }}',
		},
		credentials: warm ? CREDENTIALS.packageWarm : CREDENTIALS.packageT2,
		...continueOnError,
	};
}

/** n8n's HTTP Request node as a user would set it up: Header Auth credential, JSON body from the item. */
export function httpNode(name: string, method: 'GET' | 'POST', url: string, jsonBody?: string, warm = false): Step {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method,
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			...(jsonBody ? { sendBody: true, specifyBody: 'json', jsonBody } : {}),
			options: {},
		},
		credentials: warm ? CREDENTIALS.httpWarm : CREDENTIALS.httpT3,
		...continueOnError,
	};
}

/** Code node source returning `rows` in items of `{ invoices: [...] }`, `size` rows each. */
const inBatchesOf = (size: number) =>
	`const out = [];\nfor (let i = 0; i < rows.length; i += ${size}) out.push({ json: { invoices: rows.slice(i, i + ${size}) } });\nreturn out;`;

/**
 * A Code node making one item per listing page, `{ page }` for pages 1..`pages`: the hand-built
 * look is given the account's page count, which the package must first ask (its first page).
 */
export function listingPages(name: string, pages: number): Step {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: `return Array.from({ length: ${Math.max(1, pages)} }, (_, i) => ({ json: { page: i + 1 } }));` },
	};
}

/**
 * A Code node keeping the rows of node `rowsNode` whose policy and effective date no listed
 * invoice has (the listing pages are its input), in batches of `size`: the least a look before
 * filing does, without the package's checks.
 */
export function rowsNotListed(name: string, rowsNode: string, size: number): Step {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: {
			jsCode: `const listed = new Set();\nfor (const page of $input.all()) for (const invoice of page.json.data?.invoices ?? []) listed.add(invoice.policy_number + '|' + invoice.effective_date);\nconst rows = $('${rowsNode}').all().map((item) => item.json).filter((row) => !listed.has(row.policy_number + '|' + row.effective_date));\n${inBatchesOf(size)}`,
		},
	};
}

/** A Code node grouping its input items into batches of `size`: `{ invoices: [...] }` each. */
export function batches(name: string, size: number): Step {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: {
			jsCode: `const rows = $input.all().map((item) => item.json);\n${inBatchesOf(size)}`,
		},
	};
}
