/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		// Type-checking is its own stage (tsc -p test); jest only transpiles, which keeps it fast.
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }],
	},
	// Room for a busy shared machine (CI's 2 cores): a test that hangs still fails, only later.
	testTimeout: 120000,
	setupFilesAfterEnv: ['<rootDir>/test/helpers/jestSetup.ts'],
};
