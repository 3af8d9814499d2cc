import { KEYS } from './keys';
import { DEFAULT_PORT, startSandbox } from './index';
import { formsFromEnv } from './invoices/forms';

function numberFromEnv(name: string, fallback: number): number {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const n = Number(raw);
	if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got '${raw}'`);
	return n;
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({
		port: numberFromEnv('SANDBOX_PORT', DEFAULT_PORT),
		autoAdvanceSeconds: numberFromEnv('SANDBOX_AUTO_ADVANCE_SECONDS', 0),
		forms: formsFromEnv(process.env.SANDBOX_FORMS),
	});
	console.log(`Surplus Lines sandbox listening`);
	console.log(`  base URL:  ${sandbox.baseUrl}`);
	console.log(`  reference: ${sandbox.baseUrl}/docs  (OpenAPI: ${sandbox.baseUrl}/openapi.json)`);
	console.log(`  control:   http://127.0.0.1:${sandbox.port}/_sandbox/...`);
	console.log('  keys:');
	for (const k of KEYS) {
		const traits = [k.tier, k.account, k.mode, k.new_features ? 'new features' : 'legacy', k.calculator ? 'calculator' : 'no calculator scope'];
		if (k.account_calculator_enabled === false) traits.push('calculator off for account');
		if (k.revoked) traits.push('REVOKED');
		console.log(`    ${k.name.padEnd(18)} ${k.key}  (${traits.join(', ')})`);
	}
	const stop = (): void => void sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((e: Error) => {
	console.error(e.message);
	process.exit(1);
});
