export function buildOpenApi(baseUrl: string): Record<string, unknown> {
	return { openapi: '3.0.3', servers: [{ url: baseUrl }], paths: {} };
}
