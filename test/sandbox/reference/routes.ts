import { validationError } from '../envelope';
import { READ, type AuthedCall, type Result, type Route } from '../router';
import { COVERAGES, DOCUMENT_TYPES, LOBS, searchCompanies } from './catalog';
import { FEE_TYPES } from './feeTypes';

const list = (pattern: string, data: (call: AuthedCall) => unknown): Route => ({
	method: 'GET',
	pattern,
	handler: (call): Result => ({ status: 200, data: data(call) }),
	access: READ,
	body: false,
});

export const referenceRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/companies/search',
		handler: (call) => {
			const q = call.query.get('q');
			if (q === null || q.trim() === '') throw validationError({ q: ['This field is required'] });
			return { status: 200, data: { companies: searchCompanies(q) } };
		},
		access: READ,
		body: false,
	},
	list('/lobs', () => ({ lobs: LOBS })),
	list('/coverages', () => ({ coverages: COVERAGES })),
	list('/reference/fee-types', () => ({ fee_types: FEE_TYPES })),
	list('/reference/document-types', () => ({ document_types: DOCUMENT_TYPES })),
	list('/reference/states', (call) => ({ states: call.world.states })),
];
