/**
 * Issue 38: header words as brokers' systems write them, read from the one table of header words
 * (HEADER_WORDS), which docs/reading-sheets.md shows; this test keeps the two equal. A state's
 * code or name before or after a tax or fee header makes it that state's fee.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import { HEADER_WORDS } from '../../../nodes/sheet/columnWords';
import { matchItemColumns, readColumnName } from '../../../nodes/sheet/columns';
import { readTransaction } from '../../../nodes/sheet/transactionTypes';
import { readAmount, readStateCode } from '../../../nodes/shared/values';

const DOC = join(__dirname, '../../../docs/reading-sheets.md');
const START = '<!-- header-words: generated from HEADER_WORDS (columnWords.ts) -->';
const END = '<!-- header-words: end -->';

/** The docs' table of header words, as HEADER_WORDS gives it. */
function wordsTable(): string {
	const code = (spellings: string[]) => spellings.map((s) => `\`${s}\``).join(', ');
	return [
		'| Word | Also written | Means | An unknown column with it |',
		'|---|---|---|---|',
		...HEADER_WORDS.map((w) => `| ${w.word} | ${code(w.spellings)} | ${w.means} | ${w.names ? `names ${w.names}: refused` : 'listed'} |`),
	].join('\n');
}

describe('the one table of header words', () => {
	it('docs/reading-sheets.md shows HEADER_WORDS exactly (regenerate the section from this test when the table changes)', () => {
		const doc = readFileSync(DOC, 'utf8');
		const section = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END)).trim();
		expect(doc.indexOf(START)).toBeGreaterThan(0);
		expect(section).toBe(wordsTable());
	});

	it('each spelling belongs to one word', () => {
		const spellings = HEADER_WORDS.flatMap((w) => [w.word, ...w.spellings]);
		expect(spellings.length).toBe(new Set(spellings).size);
	});
});

describe('headers as an agency-management system exports them', () => {
	it.each([
		['Invoice Nbr', 'invoice_number'],
		['Inv Nbr', 'invoice_number'],
		['Mailing St', 'address_state'],
		['Policy Nbr', 'policy_number'],
		['Insd St', 'state_code'],
		['Trans', 'type_code'],
		['Pol Eff', 'effective_date'],
		['Pol Exp', 'expiration_date'],
		['Trans Eff', 'transaction_effective_date'],
		['Carrier 1 Share', 'insurer_1_percent'],
		['Prem', 'net_premium'],
		['Pol Fee', 'fee_policy_fee_company'],
		['Insp Fee', 'fee_inspection_fee'],
		['Brkr Fee', 'fee_broker_fee'],
		['Stamp', 'fee_stamping_fee'],
		['Stamp Fee Amt', 'fee_stamping_fee'],
		['Comm', 'commission'],
		['Comm Amt', 'commission'],
		['SL Tax', 'fee_sl_tax'],
	])('"%s" is read as %s', (header, id) => {
		expect(readColumnName(header).match?.id).toBe(id);
	});

	it.each([
		['Texas SL Tax', 'fee_sl_tax', 'TX'],
		['New York Stamping Fee', 'fee_stamping_fee', 'NY'],
		['Florida Stamping Fee', 'fee_stamping_fee', 'FL'],
		['Stamping Fee (TX)', 'fee_stamping_fee', 'TX'],
		['SL Tax - Florida', 'fee_sl_tax', 'FL'],
		['Surplus Lines Tax (District of Columbia)', 'fee_sl_tax', 'DC'],
	])('"%s" is %s of %s', (header, id, state) => {
		expect(readColumnName(header).match).toMatchObject({ id, state });
	});

	it('a state-named fee is filed on its state’s row and refused with an amount on another’s; a company’s fee is no state’s', () => {
		const row: IDataObject = { 'Policy #': 'P-1', 'Insured Name': 'Acme', State: 'Texas', 'Eff Date': '03/01/2026', 'Exp Date': '03/01/2027', Premium: '1000' };
		const tx = matchItemColumns({ ...row, 'Texas SL Tax': '48.50', 'Florida Stamping Fee': '' });
		expect([tx.values.fee_sl_tax, tx.problems]).toEqual(['48.50', []]);
		expect(matchItemColumns({ ...row, 'Florida Stamping Fee': '1.00' }).problems).toEqual([expect.stringContaining('column "Florida Stamping Fee" (1.00) is a fee for FL, but the row\'s state is TX')]);
		expect(readColumnName('Co Policy Fee').match?.state).toBeUndefined();
		expect(readColumnName('Policy Fee (Co)').match?.state).toBeUndefined();
	});

	it('"State of New York" and "Commonwealth of Virginia" are the states; "State of Mind" is not', () => {
		expect(readStateCode('State of New York')).toEqual({ ok: true, value: 'NY' });
		expect(readStateCode('Commonwealth of Virginia')).toEqual({ ok: true, value: 'VA' });
		expect(readStateCode('State of Mind').ok).toBe(false);
	});
});

describe('values as agency-management systems export them', () => {
	it.each([
		['2,400.00 CR', -2400],
		['150.00 DR', 150],
		['99CR', -99],
		['-', 0],
		['$1,000.00 CR', -1000],
	])('"%s" reads %d', (text, value) => {
		expect(readAmount(text)).toEqual({ ok: true, value });
	});

	it.each(['-2,400.00 CR', '(2,400.00) CR', '+5 DR'])('"%s" (a sign and CR/DR) is refused, not guessed', (text) => {
		expect(readAmount(text)).toEqual({ ok: false, message: expect.stringContaining('without a sign') });
	});

	it.each([
		['NBS', 'NEW'],
		['RWL', 'RENEWAL'],
		['RNL', 'RENEWAL'],
		['END', 'ENDORSEMENT'],
		['PCH', 'ENDORSEMENT'],
		['XLN', 'CANCELLATION'],
		['CXL', 'CANCELLATION'],
	])('the ACORD code %s is %s, said', (code, type) => {
		const read = readTransaction(code);
		expect(read.ok && read.value?.code).toBe(type);
	});

	it.each(['CAN', 'Can', 'CXL', 'CNX', 'CNCL', 'CANC', 'Canx', 'Cancel'])('the cancellation abbreviation %s is a cancellation', (code) => {
		const read = readTransaction(code);
		expect(read.ok && read.value?.code).toBe('CANCELLATION');
	});

	it.each([['AUD', 'audit'], ['REI', 'reinstatement'], ['REW', 'rewrite'], ['NBQ', 'quote'], ['RIX', 'reissue']])('the ACORD code %s is refused with the reason (%s)', (code, why) => {
		expect(readTransaction(code)).toEqual({ ok: false, message: expect.stringContaining(why) });
	});
});
