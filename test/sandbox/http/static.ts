import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ServerResponse } from 'node:http';

// swagger-ui-dist is served from node_modules: the reference works offline, no CDN.
const SWAGGER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Readonly<Record<string, string>> = {
	'swagger-ui.css': 'text/css; charset=utf-8',
	'index.css': 'text/css; charset=utf-8',
	'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
	'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
	'favicon-32x32.png': 'image/png',
	'favicon-16x16.png': 'image/png',
};

export function sendBytes(res: ServerResponse, status: number, type: string, bytes: Buffer, headers: Record<string, string> = {}): void {
	res.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': String(bytes.length) });
	res.end(bytes);
}

function docsPage(base: string): string {
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Surplus Lines Service (sandbox) - API reference</title>
<link rel="stylesheet" href="${base}/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="${base}/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}/docs/swagger-ui-bundle.js"></script>
<script src="${base}/docs/swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({
	url: '${base}/openapi.json',
	dom_id: '#swagger-ui',
	presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
	layout: 'StandaloneLayout'
});
</script>
</body>
</html>
`;
}

/** Serves /api/v1/docs and its assets; false when the path is not one of them. */
export function serveDocs(res: ServerResponse, base: string, sub: string): boolean {
	if (sub === '/docs' || sub === '/docs/') {
		sendBytes(res, 200, 'text/html; charset=utf-8', Buffer.from(docsPage(base)));
		return true;
	}
	const name = sub.slice('/docs/'.length);
	const type = ASSETS[name];
	if (!sub.startsWith('/docs/') || !type) return false;
	sendBytes(res, 200, type, readFileSync(join(SWAGGER_DIR, name)), { 'Cache-Control': 'max-age=3600' });
	return true;
}
