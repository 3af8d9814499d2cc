import { config } from '@n8n/node-cli/eslint';

// The community rules for node code (no process, timers or console) are right for what ships in
// nodes/ and credentials/. Tests, the sandbox and scripts are development tools that run a server,
// time things and print: they get one override and never reach dist.
export default [
	...config,
	// Compiled output of the sandbox, e2e driver and benchmarks.
	{ ignores: ['.cache/**', 'coverage/**'] },
	{
		files: ['test/**/*.ts', 'scripts/**/*.ts'],
		rules: {
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/missing-paired-item': 'off',
			'@n8n/community-nodes/require-node-api-error': 'off',
			'@n8n/community-nodes/no-hardcoded-secrets': 'off',
			'@n8n/community-nodes/node-usable-as-tool': 'off',
			// The e2e driver and benchmarks start n8n, npm and the sandbox: that is their job.
			'@n8n/community-nodes/no-dangerous-functions': 'off',
			'@typescript-eslint/no-require-imports': 'off',
			'no-console': 'off',
		},
	},
];
