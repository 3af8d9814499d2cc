import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import { checkCredentialFields } from '../nodes/shared/credentialRules';
import { PATHS } from '../nodes/shared/service';

/** What the credential test says when the reply to GET /auth/me is not a success. */
export const CREDENTIAL_TEST_MESSAGES = {
	notTheService:
		'The Base URL answered, but not as the Surplus Lines service (a web page, a redirect or a login portal instead of its JSON reply): check the address; it ends in /api/v1.',
	keyRefused:
		'The service refused this API key (401 UNAUTHORIZED): it is wrong, revoked or expired, or belongs to the other environment (test and live accounts have separate keys). Ask the operator for a working key.',
	rateLimited:
		'The key’s hourly request limit is used up (429), so the key could not be checked: test again after the hour turns.',
	serviceError:
		'The service answered GET /auth/me with an error: check that the Base URL is the service’s address ending in /api/v1, then test again.',
} as const;

export class SurplusLinesApi implements ICredentialType {
	name = 'surplusLinesApi';

	displayName = 'Surplus Lines API';

	icon: Icon = {
		light: 'file:../icons/surplusLines.svg',
		dark: 'file:../icons/surplusLines.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-surplus-lines/n8n-nodes-surplus-lines#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			hint: 'Form: prefix_t2_ then 32 lowercase letters and digits (t1, t2 or t3 is the tier)',
			description:
				'Key issued by the operator for your account, of the form prefix_t2_ followed by 32 lowercase letters and digits. The tier (t1, t2, t3) decides what the key may do.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://example.com/api/v1',
			description:
				'Service base address, ending in /api/v1 (added when missing), with no query, fragment or user name. Use https: the service redirects plain http and a redirected POST loses the invoice. Plain http is accepted only for a local sandbox (127.0.0.1 or localhost).',
		},
	];

	/**
	 * Checks the credential with the nodes' own rules before the key is put on any request: a Base
	 * URL or key the nodes would refuse is refused here too, and nothing is sent. The credential
	 * test's request is the only one given a `baseURL` (the nodes send full URLs): it gets the
	 * address exactly as the nodes normalise it.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const checked = checkCredentialFields(credentials);
		if (!checked.ok) throw new UserError(checked.problem);
		return {
			...requestOptions,
			...(requestOptions.baseURL === undefined ? {} : { baseURL: checked.value.baseUrl }),
			headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey)}` },
		};
	}

	// Every reply is read as the nodes read it: no redirect followed, the envelope or nothing. The
	// rules are checked in order on the reply body; the first that matches is the message shown.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl }}',
			url: PATHS.authMe,
			method: 'GET',
			json: true,
			disableFollowRedirect: true,
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'success',
					value: undefined,
					message: CREDENTIAL_TEST_MESSAGES.notTheService,
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'UNAUTHORIZED',
					message: CREDENTIAL_TEST_MESSAGES.keyRefused,
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error.code',
					value: 'RATE_LIMIT_EXCEEDED',
					message: CREDENTIAL_TEST_MESSAGES.rateLimited,
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'success',
					value: false,
					message: CREDENTIAL_TEST_MESSAGES.serviceError,
				},
			},
		],
	};
}
