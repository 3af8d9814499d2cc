/**
 * The Invoice operations' settings, read from the node: the one place these node parameters are
 * read. Each operation reads the ones it needs near its start and hands the values to the stages
 * (filing/, taxes/, account/), which never see the node.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { unknownLobOf, type UnknownLob } from '../../account/options';
import { idempotencyChoice, type IdempotencyChoice } from '../../filing/idempotency';
import { filingSettings, type FilingSettings, type ReplayedView } from '../../filing/options';
import { itemParameter, nodeVersion } from '../../shared/params';
import type { Run } from '../../shared/run';
import { taxCheckSettings, type TaxCheckSettings } from '../../taxes/sheetCheck';

const optionsOf = (ctx: IExecuteFunctions, itemIndex: number) =>
	ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;

/** Options → the filing settings (look-alikes, the look first, the lost create's wait, the mark). */
export function readFilingSettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	defaultReplayedView: ReplayedView,
): FilingSettings {
	return filingSettings(optionsOf(ctx, itemIndex), defaultReplayedView);
}

/** Options → the sheet's tax check. */
export function readTaxCheckSettings(ctx: IExecuteFunctions, itemIndex: number): TaxCheckSettings {
	return taxCheckSettings(optionsOf(ctx, itemIndex), nodeVersion(ctx));
}

/**
 * Options → Unknown Line of Business (the account adapter's one choice). Read for every row of
 * Create Many, so read as itemParameter reads: once per run unless it is an expression.
 */
export function readUnknownLob(ctx: IExecuteFunctions, itemIndex: number): UnknownLob {
	const choice = itemParameter<unknown>(ctx, 'options.unknownLineOfBusiness', itemIndex, 'fail');
	return unknownLobOf({ unknownLineOfBusiness: choice as string | undefined });
}

/** Bill Taxes From Preview: version 2's switch, or version 1's Options entry. */
export function wantsTaxesFromPreview(ctx: IExecuteFunctions, itemIndex: number): boolean {
	if (nodeVersion(ctx) >= 2) {
		return ctx.getNodeParameter('billTaxesFromPreview', itemIndex, true) as boolean;
	}
	return optionsOf(ctx, itemIndex).billTaxesFromPreview === true;
}

/**
 * The Idempotency setting of item `i`: on the main panel in version 1, in Options from version 2
 * (same names, same meaning). An own key is checked locally (idempotency.ts).
 */
export function readIdempotencyChoice(
	ctx: IExecuteFunctions,
	run: Run,
	i: number,
): IdempotencyChoice {
	const at = nodeVersion(ctx) >= 2 ? 'options.' : '';
	const mode = itemParameter<string>(ctx, `${at}idempotency`, i, 'derived');
	const key =
		mode === 'own' ? String(ctx.getNodeParameter(`${at}idempotencyKey`, i, '') ?? '') : '';
	return idempotencyChoice(run, mode, key, i);
}
