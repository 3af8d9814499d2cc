import { estimate, type CalculatorResult } from '../calculator/estimate';
import { centralDate, centralTimestamp, isValidDate } from '../clock/time';
import type { Account } from '../keys';
import { checkFees } from '../reference/feeTypes';
import type { World } from '../world';
import { buildParts, coverageNotFound } from './build';
import { newFiling } from './store';
import { checkInvoice } from './validate';
import { previewView } from './view';
import { coverageFor } from '../reference/catalog';

type Body = Record<string, unknown>;

/**
 * The tax part of a preview. It runs even when other fields fail, as long as state, premium and
 * date can be read, so a caller sees both the problems and the figures in one reply.
 */
function previewTax(world: World, body: Body): CalculatorResult | null {
	const state = typeof body.state_code === 'string' ? world.state(body.state_code) : undefined;
	const premium = body.net_premium;
	if (!state || typeof premium !== 'number' || !Number.isFinite(premium)) return null;
	const date = isValidDate(body.effective_date) ? body.effective_date : centralDate(world.now());
	const isChange = body.type_code === 'ENDORSEMENT' || body.type_code === 'CANCELLATION';
	const fees = Array.isArray(body.fees) ? checkFees(body.fees, { max: Infinity, allowTaxCodes: true }, () => undefined) : null;
	return estimate({
		rates: state.rates,
		state: state.row,
		premium,
		policyFees: 0,
		fees,
		effectiveDate: date,
		flatCharges: !isChange,
		now: world.now(),
	});
}

export function preview(world: World, account: Account, body: Body): Record<string, unknown> {
	const { errors, input } = checkInvoice(body, account, world.states);
	const messages = errors.messages();
	const warnings: string[] = [];
	const state = typeof body.state_code === 'string' ? world.state(body.state_code) : undefined;
	if (state && !state.row.efile) messages.push(`State ${state.row.code} is not supported for filing`);
	if (body.net_premium === 0) messages.push('Net premium cannot be zero');
	if (state && Array.isArray(body.coverages)) {
		for (const c of body.coverages as unknown[]) {
			const code = (c as Body | null)?.code;
			if (typeof code === 'string' && code !== '' && !coverageFor(code, state.row.code))
				messages.push(coverageNotFound(code, state.row.code));
		}
	}
	const taxCalculation = previewTax(world, body);
	let invoice: Record<string, unknown> | null = null;
	if (input && state) {
		const parts = buildParts(input, account, state.rates, false);
		// Coverage problems are already errors here; keep warnings for what is not an error.
		warnings.push(...parts.warnings.filter((w) => !w.startsWith('Coverage code')));
		invoice = previewView(
			{
				input,
				parts,
				status: 'new',
				created: centralTimestamp(world.now()),
				policyId: world.invoices.policyId(account.id, input.policyNumber, false),
				filing: newFiling(),
				documents: [],
			},
			account,
			world,
		);
	}
	for (const w of taxCalculation?.warnings ?? []) if (!warnings.includes(w)) warnings.push(w);
	return {
		validation: { valid: messages.length === 0, errors: messages, warnings },
		tax_calculation: taxCalculation,
		invoice,
	};
}
