/**
 * One workflow, every account, in a real n8n: the same workflow on a new-features account and on a
 * legacy one (no carrier_lookup, lob_name or transaction_effective_date), t2 and t3. The sample
 * bordereau (insurers by NAIC, as brokers' sheets have them) is filed from the CSV and then from
 * the XLSX with Create Many and Map Columns, then a NEW and an ENDORSEMENT of one policy with a
 * date of change and a NAIC insurer. Every check reads the sandbox's store through the service API.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { keyByName } from '../sandbox';
import { control, type Context, type Scenario } from './context';
import { REPO_ROOT } from './n8n';
import { json } from './runData';

const KINDS = ['t2', 't3', 'legacy-t2', 'legacy-t3'] as const;
type Kind = (typeof KINDS)[number];

/** The sandbox's companies by NAIC (its catalogue, as `GET /companies/search` lists it). */
const COMPANY_BY_NAIC: Record<string, number> = { '90001': 301, '90002': 302, '90003': 303, '90004': 304, '90005': 305 };

/** The sample's rows that are wrong on purpose, and what each must say, on every account. */
const BAD_ROWS: Record<string, RegExp> = {
	// Each names the sheet's column as written (issue 40), the value where the row gave one.
	'BDX-26-0105': /Column "Insured Name" is missing or empty.*insured_name field is required/,
	'BDX-26-0109': /Column "Eff Date".*Must be a valid date/,
	'BDX-26-0114': /Column "State".*"TZ" is not a US state code or name/,
	'BDX-26-0119': /Column "Type".*Must be one of/,
	'BDX-26-0123': /99999/,
};

function sampleRows(): Array<Record<string, string>> {
	const [header, ...rows] = readFileSync(join(REPO_ROOT, 'examples', 'files', 'sample-bordereau.csv'), 'utf8')
		.trim()
		.split('\n')
		.map((line) => line.split(','));
	return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
}

const usDate = (text: string) => `${text.slice(6, 10)}-${text.slice(0, 2)}-${text.slice(3, 5)}`;

async function apiGet(ctx: Context, kind: Kind, path: string): Promise<IDataObject> {
	const res = await fetch(`${ctx.sandbox.baseUrl}${path}`, { headers: { authorization: `Bearer ${keyByName(kind).key}` } });
	assert.equal(res.status, 200, `GET ${path}: ${res.status}`);
	return ((await res.json()) as { data: IDataObject }).data;
}

/** Calls the key has made this hour (the sandbox's counter, read with one more call). */
async function callsByKey(ctx: Context, kind: Kind): Promise<number> {
	const res = await fetch(`${ctx.sandbox.baseUrl}/reference/states`, { headers: { authorization: `Bearer ${keyByName(kind).key}` } });
	return Number(res.headers.get('x-ratelimit-limit')) - Number(res.headers.get('x-ratelimit-remaining')) - 1;
}

/** What must be the same on every account: the filing as the state sees it. */
function shape(invoice: IDataObject): IDataObject {
	const insurers = (invoice.insurers as IDataObject[]).map((i) => ({ company_id: i.company_id, naic: i.naic, percent: i.percent }));
	const fees = (invoice.fees as IDataObject[]).map((f) => `${String(f.type)} ${String(f.amount)}`).sort();
	return {
		policy_number: invoice.policy_number,
		insured_name: invoice.insured_name,
		state: (invoice.state as IDataObject).code,
		type: (invoice.type as IDataObject).name,
		effective_date: invoice.effective_date,
		expiration_date: invoice.expiration_date,
		net_premium: invoice.net_premium,
		insurers,
		fees,
	};
}

// Shapes recorded by the scenario of each tier's new-features account, for its legacy twin.
const shapesByTier = new Map<string, IDataObject[]>();

function accountsScenario(kind: Kind): Scenario {
	const legacy = kind.startsWith('legacy');
	const tier = kind.replace('legacy-', '');
	return {
		name: `accounts-${kind}`,
		workflow: `accounts-${kind}.json`,
		async before(ctx) {
			await control(ctx, '/rate-limit', { limits: { t1: 1_000_000, t2: 1_000_000, t3: 1_000_000 } });
		},
		async check(run, ctx) {
			const calls = await callsByKey(ctx, kind);
			const sheet = sampleRows();
			const csv = json(run, 'File CSV Rows');
			const xlsx = json(run, 'File XLSX Rows');
			assert.equal(csv.length, 25, `${kind}: one item per CSV row`);
			assert.equal(xlsx.length, 25, `${kind}: one item per XLSX row`);
			const good = sheet.filter((row) => !(row['Policy #'] in BAD_ROWS));
			assert.equal(good.length, 20);
			sheet.forEach((row, i) => {
				const policy = row['Policy #'];
				for (const [file, out] of [['CSV', csv[i]], ['XLSX', xlsx[i]]] as const) {
					if (policy in BAD_ROWS) {
						assert.ok(out.error, `${kind} ${file} ${policy}: an error item (${JSON.stringify(out).slice(0, 300)})`);
						const text = `${String(out.error)} ${JSON.stringify(out.fields ?? [])}`;
						assert.match(text, BAD_ROWS[policy], `${kind} ${file} ${policy}: ${text.slice(0, 400)}`);
					}
				}
				if (policy in BAD_ROWS) return;
				assert.equal(csv[i].outcome, 'filed', `${kind} CSV ${policy}: filed (${JSON.stringify(csv[i]).slice(0, 400)})`);
				assert.equal(xlsx[i].outcome, 'already_filed', `${kind} XLSX ${policy}: not filed again (${JSON.stringify(xlsx[i]).slice(0, 400)})`);
				assert.equal(xlsx[i].id, csv[i].id, `${kind} ${policy}: the XLSX row is the invoice the CSV row filed`);
				// A legacy account is told the insurer's company id, and the item says so.
				const adapted = (csv[i]._adapted ?? []) as IDataObject[];
				if (legacy) assert.deepEqual(adapted.map((a) => [a.field, a.column, a.from, a.sentAs, a.to]), [['insurers[0].naic', 'NAIC', row.NAIC, 'insurers[0].company_id', COMPANY_BY_NAIC[row.NAIC]]]);
				else assert.deepEqual(adapted, [], `${kind}: nothing adapted where the account looks insurers up`);
			});

			// The store: each good row once, in the same shape whatever the account.
			const listed = (await apiGet(ctx, kind, '/invoices?per_page=100')).invoices as IDataObject[];
			const bordereau = listed.filter((inv) => String(inv.policy_number).startsWith('BDX-'));
			assert.deepEqual(bordereau.map((inv) => inv.policy_number).sort(), good.map((row) => row['Policy #']).sort(), `${kind}: every good row stored once`);
			const shapes = good.map((row) => shape(bordereau.find((inv) => inv.policy_number === row['Policy #'])!));
			shapes.forEach((stored, n) => {
				const row = good[n];
				assert.equal(stored.effective_date, usDate(row['Eff Date']));
				assert.equal(stored.net_premium, Number(row.Premium));
				assert.deepEqual(stored.insurers, [{ company_id: COMPANY_BY_NAIC[row.NAIC], naic: row.NAIC, percent: 100 }], `${kind} ${row['Policy #']}: its insurer`);
			});
			if (!legacy) shapesByTier.set(tier, shapes);
			const twin = shapesByTier.get(tier);
			if (legacy && twin) assert.deepEqual(shapes, twin, `${kind}: stored as on the ${tier} account with the new features`);

			// The endorsement: the date of the change reaches the store on both kinds of account.
			const [newItem] = json(run, 'File New');
			const [endorsementItem] = json(run, 'File Endorsement');
			assert.equal(newItem.outcome, 'filed');
			assert.equal(endorsementItem.outcome, 'filed', `${kind}: ${JSON.stringify(endorsementItem).slice(0, 400)}`);
			const endorsement = await apiGet(ctx, kind, `/invoices/${String(endorsementItem.id)}`);
			assert.equal((endorsement.type as IDataObject).name, 'Endorsement');
			assert.deepEqual((endorsement.insurers as IDataObject[]).map((i) => [i.company_id, i.naic]), [[303, '90003']], `${kind}: the endorsement's insurer`);
			const changeDate = legacy ? endorsement.effective_date : endorsement.transaction_effective_date;
			assert.equal(changeDate, '2026-07-01', `${kind}: the stored endorsement carries the date of the change`);
			if (legacy) {
				assert.deepEqual(
					((endorsementItem._adapted ?? []) as IDataObject[]).map((a) => [a.field, a.sentAs, a.to]),
					[
						['insurers[0].naic', 'insurers[0].company_id', 303],
						['transaction_effective_date', 'effective_date', '2026-07-01'],
					],
				);
			} else {
				assert.equal(endorsement.effective_date, '2026-03-01', `${kind}: the policy term kept beside the change date`);
				assert.equal(endorsementItem._adapted, undefined);
			}
			console.log(`[e2e]         accounts-${kind}: 20 of 25 rows filed from the CSV, the XLSX's 20 already_filed, endorsement stored with 2026-07-01; the workflow made ${calls} calls`);
		},
	};
}

export const ACCOUNT_SCENARIOS: Scenario[] = KINDS.map(accountsScenario);
