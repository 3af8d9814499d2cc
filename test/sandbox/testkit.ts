// Shared by the sandbox's contract tests: one sandbox per test file, reset before each test.
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { keyByName, startSandbox, type SandboxOptions, type RunningSandbox } from './index';

export interface Kit {
	sb: RunningSandbox;
	/** A client for the named seeded key; null = no Authorization header. */
	api(keyName: string | null): AxiosInstance;
	/** POST a control endpoint; throws unless it answers 200. */
	control(path: string, body?: unknown): Promise<AxiosResponse>;
	/** Asserts the reply matches the OpenAPI document's schema for that operation and status. */
	conforms(res: AxiosResponse, method: string, template: string): void;
}

export function client(baseURL: string, key: string | null): AxiosInstance {
	return axios.create({
		baseURL,
		headers: key ? { Authorization: `Bearer ${key}` } : {},
		validateStatus: () => true,
	});
}

/** A reply object in assertions; fields are compared, not used. */
export type Row = Record<string, unknown>;

interface OpenApiDoc {
	paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>;
}

class Contract {
	private readonly ajv = new Ajv({ strict: false, allErrors: true });
	private readonly cache = new Map<string, ValidateFunction>();

	constructor(private readonly doc: OpenApiDoc) {
		addFormats(this.ajv);
		this.ajv.addSchema(doc, 'openapi.json');
	}

	check(res: AxiosResponse, method: string, template: string): void {
		const status = String(res.status);
		const op = this.doc.paths[template]?.[method.toLowerCase()];
		if (!op) throw new Error(`openapi.json has no ${method} ${template}`);
		const response = op.responses[status];
		if (!response) throw new Error(`openapi.json has no ${status} for ${method} ${template}`);
		if (status === '204') {
			expect(res.data === '' || res.data === undefined).toBe(true);
			return;
		}
		// Point into the document itself so the schema's #/components refs resolve.
		const pointer = response.$ref
			? `${response.$ref}/content/application~1json/schema`
			: `#/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
		let validate = this.cache.get(pointer);
		if (!validate) {
			validate = this.ajv.compile({ $ref: `openapi.json${pointer}` });
			this.cache.set(pointer, validate);
		}
		if (!validate(res.data)) throw new Error(`${method} ${template} ${status} does not conform: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(res.data).slice(0, 800)}`);
	}
}

/** Starts a sandbox for the file (port 0) and resets it before each test. */
export function useSandbox(options: SandboxOptions = {}): () => Kit {
	let kit: Kit | undefined;
	beforeAll(async () => {
		const sb = await startSandbox({ port: 0, ...options });
		const origin = sb.baseUrl.replace(/\/api\/v1$/, '');
		const doc = (await client(sb.baseUrl, null).get('/openapi.json')).data as Record<string, unknown>;
		const contract = new Contract(doc as unknown as OpenApiDoc);
		kit = {
			sb,
			api: (name) => client(sb.baseUrl, name === null ? null : keyByName(name).key),
			control: async (path, body = {}) => {
				const res = await client(origin, null).post(`/_sandbox${path}`, body);
				if (res.status !== 200) throw new Error(`control ${path} -> ${res.status} ${JSON.stringify(res.data)}`);
				return res;
			},
			conforms: (res, method, template) => contract.check(res, method, template),
		};
	});
	beforeEach(() => kit?.sb.reset());
	afterAll(async () => kit?.sb.close());
	return () => {
		if (!kit) throw new Error('sandbox not started');
		return kit;
	};
}

/** A valid NEW invoice request; override fields per test. */
export function invoiceBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		policy_number: 'POL-1',
		insured_name: 'Acme Widgets LLC',
		state_code: 'TX',
		net_premium: 10000,
		effective_date: '2026-03-01',
		expiration_date: '2027-03-01',
		...overrides,
	};
}
