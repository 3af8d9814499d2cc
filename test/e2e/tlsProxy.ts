/**
 * A local HTTPS proxy that stands in for one outside host. n8n sends a node's HTTPS requests
 * through `HTTPS_PROXY` as `CONNECT host:443`; this proxy answers that CONNECT for the one host it
 * serves by terminating TLS itself, with a certificate for that host signed by a throwaway CA made
 * here, and hands the decrypted requests to a local handler. n8n trusts the CA through
 * `NODE_EXTRA_CA_CERTS`. Every other CONNECT is refused, so nothing leaves the machine.
 *
 * Certificates come from Debian's `openssl` command (the standard tool, on every Debian machine;
 * no certificate code of ours). The proxy is Node's own `http` CONNECT event and
 * an `https.Server` fed the tunnelled socket: a few lines, where an intercepting-proxy library
 * would bring its own server framework.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';

export interface TlsProxy {
	/** http://127.0.0.1:<port>, for HTTPS_PROXY. */
	url: string;
	/** The throwaway CA's certificate (PEM), for NODE_EXTRA_CA_CERTS. */
	caFile: string;
	/** CONNECT targets refused (anything but the served host). */
	refused: string[];
	/** The environment that sends n8n's HTTPS through this proxy, loopback calls around it. */
	env(): Record<string, string>;
	close(): Promise<void>;
}

function openssl(args: string[], cwd: string): void {
	const result = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
	if (result.error) throw new Error(`openssl is needed for the local HTTPS proxy (apt-get install openssl): ${result.error.message}`);
	if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
}

/** A CA valid for two days and a certificate for `host` signed by it, as PEM files in `dir`. */
export function makeThrowawayCa(dir: string, host: string): { caFile: string; keyFile: string; certFile: string } {
	mkdirSync(dir, { recursive: true });
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl(
		['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=n8n-nodes-surplus-lines throwaway test CA',
			'-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
		dir,
	);
	openssl(['req', ...ec, '-keyout', 'host.key', '-out', 'host.csr', '-subj', `/CN=${host}`], dir);
	writeFileSync(
		join(dir, 'host.ext'),
		`subjectAltName=DNS:${host}\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n`,
	);
	openssl(['x509', '-req', '-in', 'host.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', 'host.ext', '-out', 'host.pem'], dir);
	return { caFile: join(dir, 'ca.pem'), keyFile: join(dir, 'host.key'), certFile: join(dir, 'host.pem') };
}

/**
 * Starts the proxy on a loopback port (`port`, else a free one): `CONNECT <host>:443` reaches
 * `handler`, all else is refused.
 */
export async function startTlsProxy(opts: {
	host: string;
	dir: string;
	port?: number;
	handler: (req: IncomingMessage, res: ServerResponse) => void;
}): Promise<TlsProxy> {
	const ca = makeThrowawayCa(opts.dir, opts.host);
	// Never listens: it only serves the sockets the proxy tunnels to it.
	const site = createHttpsServer({ key: readFileSync(ca.keyFile), cert: readFileSync(ca.certFile) }, opts.handler);
	const refused: string[] = [];
	const tunnels = new Set<Duplex>();
	const proxy = createServer((_req, res) => {
		res.writeHead(405, { 'content-type': 'text/plain' });
		res.end('This proxy answers CONNECT only.\n');
	});
	proxy.on('connect', (req: IncomingMessage, socket, head: Buffer) => {
		if (req.url !== `${opts.host}:443`) {
			refused.push(req.url ?? '');
			socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
			return;
		}
		tunnels.add(socket);
		socket.on('close', () => tunnels.delete(socket));
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length) socket.unshift(head);
		site.emit('connection', socket);
	});
	await new Promise<void>((resolve, reject) => {
		proxy.once('error', reject);
		proxy.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
	});
	const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
	return {
		url,
		caFile: ca.caFile,
		refused,
		env: () => ({ HTTPS_PROXY: url, https_proxy: url, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost', NODE_EXTRA_CA_CERTS: ca.caFile }),
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of tunnels) socket.destroy();
				proxy.closeAllConnections();
				proxy.close(() => resolve());
			}),
	};
}
