import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

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
				'Service base address, ending in /api/v1 (added when missing). Use https: the service redirects plain http and a redirected POST loses the invoice. Plain http is accepted only for a local sandbox (127.0.0.1 or localhost).',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// Mirrors the node-side base URL normalisation: trailing slashes off, /api/v1 added when missing.
	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "").replace(/(\\/api\\/v1)?$/, "/api/v1") }}',
			url: '/auth/me',
			method: 'GET',
		},
	};
}
