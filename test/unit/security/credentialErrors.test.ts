/**
 * Issue 49: an unparsable Base URL was repeated in the error with its user:password. The problem
 * is named without repeating the address or any part of it that may be a secret.
 */
import { checkBaseUrl } from '../../../nodes/shared/credentialRules';

describe('a Base URL refused for its form is described, not repeated', () => {
	it.each([
		['https://user:s3cr3tpw@a b.example.com/api/v1', 'Base URL is not a valid URL: it contains a space'],
		['https://user:s3cr3tpw@[bad/api/v1', 'Base URL is not a valid URL: its host part cannot be read'],
		['user:s3cr3tpw@a.example.com/api/v1', 'Base URL must start with https://'],
		['s3cr3tpw.example.com/api/v1', 'Base URL is not a valid URL: it does not start with https://'],
		['https://a.example.com:99999/api/v1?token=s3cr3tpw', 'Base URL is not a valid URL: its host part cannot be read'],
	])('%s', (raw, reason) => {
		const checked = checkBaseUrl(raw);
		const problem = checked.ok ? '' : checked.problem;
		expect(problem.startsWith(reason)).toBe(true);
		expect(problem).toContain('enter it as https://host/api/v1');
		expect(problem).not.toMatch(/s3cr3tpw|user/);
	});

	it('a scheme that is one is still named', () => {
		expect(checkBaseUrl('ftp://a.example.com')).toEqual({ ok: false, problem: 'Base URL must start with https:// (got "ftp:"); enter it as https://host/api/v1' });
	});
});
