/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The change of key derivation is settled in every suite unless the suite says otherwise.
	setupFiles: ['<rootDir>/test/helpers/settledKeyDerivation.ts'],
	transform: {
		// Type-checking is its own stage (tsc -p test); jest only transpiles, which keeps it fast.
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }],
	},
	testTimeout: 30000,
};
