import { DateTime } from 'luxon';

import {
	fractionSharesRule,
	readAmount,
	readDate,
	readDigitCode,
	readInteger,
	readPercent,
	readStateCode,
	readText,
} from '../../nodes/shared/values';

const value = (read: { ok: boolean; value?: unknown; message?: string }) => (read.ok ? read.value : `refused: ${read.message}`);

describe('readAmount: plain decimal text, with the currency and thousands forms of a sheet', () => {
	it.each([
		['1200.5', 1200.5],
		['1200.50', 1200.5],
		[' 42 ', 42],
		['.5', 0.5],
		['-40', -40],
		['+40', 40],
		['1,234', 1234],
		['1,234.50', 1234.5],
		['$1,234.50', 1234.5],
		['$ 1,234.50', 1234.5],
		['-$1,234.50', -1234.5],
		['$-1,234.50', -1234.5],
		['(1,234.50)', -1234.5],
		['($250.00)', -250],
		['USD 99', 99],
		['99 USD', 99],
		['1,000,000', 1000000],
		[1200.5, 1200.5],
		[-3, -3],
		['', undefined],
		['   ', undefined],
		[null, undefined],
	])('%p → %p', (input, expected) => {
		expect(value(readAmount(input))).toBe(expected);
	});

	it.each([
		['0x10', 'hexadecimal, octal and binary forms are not read'],
		['0b101', 'hexadecimal, octal and binary forms are not read'],
		['0o17', 'hexadecimal, octal and binary forms are not read'],
		['1e3', 'write the amount in plain digits, without an exponent'],
		['1.5E+06', 'write the amount in plain digits, without an exponent'],
		['1.234,50', 'a comma as the decimal mark is not read; write 1234.50'],
		['1234,5', 'a comma as the decimal mark is not read; write 1234.50'],
		['€100', 'only US dollar amounts ($ or USD) are read'],
		['50%', 'a percent sign is read only in percent fields'],
		['1 234', 'no spaces inside a number'],
		['12,34,567', 'commas may only group thousands, as in 1,234.50'],
		['twelve', undefined],
		['Infinity', undefined],
		['NaN', undefined],
		['--5', undefined],
		['(-5)', undefined],
	])('%p is refused, naming the rule', (input, rule) => {
		const read = readAmount(input);
		expect(read.ok).toBe(false);
		if (read.ok) return;
		if (rule) expect(read.message).toBe(`Must be a number: ${rule} (got "${input}")`);
		else expect(read.message).toBe('Must be a number');
	});

	it('refuses objects, lists, booleans and non-finite numbers', () => {
		for (const input of [{}, [1], true, Infinity, NaN]) expect(readAmount(input).ok).toBe(false);
	});
});

describe('readPercent and readInteger', () => {
	it('reads "50%" and "50" as 50, refuses currency in a percent', () => {
		expect(value(readPercent('50%'))).toBe(50);
		expect(value(readPercent('33.33 %'))).toBe(33.33);
		expect(value(readPercent('50'))).toBe(50);
		expect(readPercent('$50').ok).toBe(false);
	});

	it('reads whole numbers only', () => {
		expect(value(readInteger('301'))).toBe(301);
		expect(value(readInteger(301))).toBe(301);
		expect(value(readInteger('301.5'))).toBe('refused: Must be an integer');
		expect(value(readInteger('abc'))).toBe('refused: Must be an integer');
		expect(readInteger('0x10').ok).toBe(false);
	});
});

describe('readDate', () => {
	it.each([
		['2026-03-01', '2026-03-01'],
		['2026-03-01T00:00:00', '2026-03-01'],
		['2026-03-01T00:00:00.000-06:00', '2026-03-01'],
		['2026/3/1', '2026-03-01'],
		['03/01/2026', '2026-03-01'],
		['3/1/2026', '2026-03-01'],
		['12/31/2026', '2026-12-31'],
		[46082, '2026-03-01'],
		['46082', '2026-03-01'],
		[46082.75, '2026-03-01'],
		[DateTime.fromISO('2026-03-01T23:30:00', { zone: 'America/Chicago' }), '2026-03-01'],
		['', undefined],
	])('%p → %p', (input, expected) => {
		expect(value(readDate(input))).toBe(expected);
	});

	it.each([
		['2026-13-01', 'Must be a valid date'],
		['2026-02-30', 'Must be a valid date'],
		['2026-1-1', 'Must be a valid date'],
		['soon', 'Must be a valid date'],
		['3/1/26', 'Must be a valid date: write the year with four digits (MM/DD/YYYY) (got "3/1/26")'],
		['13/01/2026', 'Must be a valid date: dates with slashes are read as US month/day/year (MM/DD/YYYY) (got "13/01/2026")'],
		['01.03.2026', 'Must be a valid date: day and month order is unclear; write YYYY-MM-DD or MM/DD/YYYY (got "01.03.2026")'],
		['01-03-2026', 'Must be a valid date: day and month order is unclear; write YYYY-MM-DD or MM/DD/YYYY (got "01-03-2026")'],
		[1200, 'Must be a valid date: 1200 is not a spreadsheet date number between 20000 and 80000'],
		[{ when: 'now' }, 'Must be a valid date, not an object'],
	])('%p is refused: %s', (input, message) => {
		expect(readDate(input)).toEqual({ ok: false, message });
	});
});

describe('readStateCode, readText', () => {
	it('reads state codes in any case and state names', () => {
		expect(['TX', 'tx', ' Tx ', 'Texas', 'TEXAS', 'new york', 'District of Columbia', 'D.C.', 'Washington DC'].map((v) => value(readStateCode(v)))).toEqual([
			'TX', 'TX', 'TX', 'TX', 'TX', 'NY', 'DC', 'DC', 'DC',
		]);
		expect(value(readStateCode('Puerto Rico'))).toBe('refused: "Puerto Rico" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)');
		expect(value(readStateCode('T X X'))).toBe('refused: "T X X" is not a US state code or name (the 50 states and DC, e.g. TX or Texas)');
	});

	it('text takes numbers as text and refuses objects and lists by kind', () => {
		expect(value(readText(75201))).toBe('75201');
		expect(value(readText('  a '))).toBe('  a ');
		expect(value(readText({ id: 1 }))).toBe('refused: Must be a string, not an object');
		expect(value(readText(['a']))).toBe('refused: Must be a string, not a list');
		expect(value(readText(true))).toBe('refused: Must be a string');
	});
});

describe('values that read two ways are refused, naming how to write them', () => {
	it.each(['1.500', '1.003', '12.345', '$1.500', '-999.000', '(1.500)'])('"%s" as an amount: a decimal point or a thousands dot', (text) => {
		expect(value(readAmount(text))).toMatch(/^refused: Must be a number: ".*" reads two ways \(a decimal point or a thousands dot\); write /);
	});

	it.each([
		['0.500', 0.5],
		['1.5', 1.5],
		['1.50', 1.5],
		['1234.567', 1234.567],
		['1,500.000', 1500],
	])('"%s" reads one way only: %p', (text, expected) => {
		expect(value(readAmount(text))).toBe(expected);
	});

	it('says both readings of "1.500"', () => {
		expect(value(readAmount('1.500'))).toContain('write 1.5 or 1500 without the dot');
	});

	it('percent shares that are all fractions adding up to 1 read two ways; other lists do not', () => {
		expect(fractionSharesRule([0.5, 0.5])).toBe(
			"the percents 0.5 + 0.5 add up to 1, which reads two ways (a sheet's percent cells arrive as fractions): write them out of 100 (50, 50, or with a % sign), or as amounts",
		);
		expect(fractionSharesRule([0.6, 0.3, 0.1])).toContain('(60, 30, 10,');
		expect(fractionSharesRule([50, 50])).toBeUndefined();
		expect(fractionSharesRule([0.5, 0.25])).toBeUndefined();
		expect(fractionSharesRule([1])).toBeUndefined();
		expect(fractionSharesRule([0.5, 0.5, 99])).toBeUndefined();
	});
});

describe('dates outside sane years and times that are not times are refused', () => {
	it.each([
		['1/1/0001', 'the year must be from 1900 to 2199'],
		['0001-01-01', 'the year must be from 1900 to 2199'],
		['12/31/9999', 'the year must be from 1900 to 2199'],
		['2026-03-01T25:99', 'the time after the date is not a time of day (hh:mm from 00:00 to 23:59)'],
		['2026-03-01 24:00', 'the time after the date is not a time of day (hh:mm from 00:00 to 23:59)'],
		['2026-03-01T12:60:00', 'the time after the date is not a time of day (hh:mm from 00:00 to 23:59)'],
	])('%s', (text, rule) => {
		expect(value(readDate(text))).toBe(`refused: Must be a valid date: ${rule} (got "${text}")`);
	});

	it('keeps reading real times and in-range dates', () => {
		expect(value(readDate('2026-03-01T23:59:59'))).toBe('2026-03-01');
		expect(value(readDate('1900-01-01'))).toBe('1900-01-01');
		expect(value(readDate(DateTime.fromISO('0001-01-01')))).toMatch(/^refused: Must be a valid date: the year must be from 1900/);
	});
});

describe('identifiers are text: a ZIP or NAIC a sheet turned into a number gets its zeros back', () => {
	it.each([
		[2108, '02108'],
		[78701, '78701'],
		['02108', '02108'],
		['AA-1129999', 'AA-1129999'],
		[123456789, '123456789'],
	])('%p → %p', (raw, expected) => {
		expect(value(readDigitCode(raw, 5))).toBe(expected);
	});
});
