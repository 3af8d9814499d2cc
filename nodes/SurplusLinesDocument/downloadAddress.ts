/**
 * Whether a download link (or a redirect's target) may be fetched: the rule is in service.ts
 * (documents are served over https from public hosts). Hosts are judged as the URL parser gives
 * them, which turns every form of an IPv4 address (decimal, octal, hex, short) into dotted form
 * and every IPv6 address into its compressed hex form, so each address has one spelling here.
 */
import { DOWNLOAD_INTERNAL_NAMES, DOWNLOAD_WILDCARD_DNS } from '../shared/service';

/** IPv4 blocks that are not public: [first octets, prefix length, what it is]. */
const PRIVATE_V4: ReadonlyArray<[number[], number, string]> = [
	[[0], 8, 'a "this network" address'],
	[[10], 8, 'a private address'],
	[[100, 64], 10, 'a shared (carrier NAT) address'],
	[[127], 8, 'a loopback address'],
	[[169, 254], 16, 'a link-local address (where clouds serve instance metadata)'],
	[[172, 16], 12, 'a private address'],
	[[192, 0, 0], 24, 'a reserved address'],
	[[192, 0, 2], 24, 'a documentation address'],
	[[192, 168], 16, 'a private address'],
	[[198, 18], 15, 'a benchmarking address'],
	[[198, 51, 100], 24, 'a documentation address'],
	[[203, 0, 113], 24, 'a documentation address'],
	[[224], 3, 'a multicast or reserved address'],
];

function v4Number(octets: number[]): number {
	return octets.reduce((n, o) => n * 256 + o, 0);
}

function privateV4(octets: number[]): string | undefined {
	const value = v4Number(octets);
	for (const [start, bits, what] of PRIVATE_V4) {
		const first = v4Number([...start, 0, 0, 0, 0].slice(0, 4));
		const size = 2 ** (32 - bits);
		if (value >= first && value < first + size) return what;
	}
	return undefined;
}

function ipv6Groups(host: string): number[] | undefined {
	const halves = host.split('::');
	if (halves.length > 2) return undefined;
	const read = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
	const head = read(halves[0]);
	const tail = halves.length === 2 ? read(halves[1]) : [];
	const groups =
		halves.length === 2
			? [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail]
			: head;
	return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

function privateV6(groups: number[]): string | undefined {
	const embeddedV4 = [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255];
	const zeros = (n: number) => groups.slice(0, n).every((g) => g === 0);
	// IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
	if ((zeros(5) && groups[5] === 0xffff) || (groups[0] === 0x64 && groups[1] === 0xff9b)) {
		return privateV4(embeddedV4);
	}
	if (zeros(7) && groups[7] <= 1) return 'a loopback or unspecified address';
	if (zeros(6)) return privateV4(embeddedV4);
	if ((groups[0] & 0xfe00) === 0xfc00)
		return 'a unique-local address (where clouds serve instance metadata)';
	if ((groups[0] & 0xffc0) === 0xfe80) return 'a link-local address';
	if ((groups[0] & 0xe000) !== 0x2000) return 'not a global unicast address';
	if (groups[0] === 0x2002)
		return privateV4([groups[1] >> 8, groups[1] & 255, groups[2] >> 8, groups[2] & 255]);
	if (groups[0] === 0x2001 && groups[1] === 0xdb8) return 'a documentation address';
	return undefined;
}

/** What is wrong with a host as the home of a document; undefined for a public host. */
export function hostProblem(hostname: string): string | undefined {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	if (host.startsWith('[')) {
		const groups = ipv6Groups(host.slice(1, -1));
		return groups ? privateV6(groups) : 'an IPv6 address that could not be read';
	}
	if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return privateV4(host.split('.').map(Number));
	const internal = DOWNLOAD_INTERNAL_NAMES.find(
		(name) => host === name || host.endsWith(`.${name}`),
	);
	if (internal) return `an internal host name (.${internal})`;
	const wildcard = DOWNLOAD_WILDCARD_DNS.find((name) => host === name || host.endsWith(`.${name}`));
	if (wildcard)
		return `a name of a wildcard DNS service (.${wildcard}) that answers with any address written in it, private ones included`;
	if (!host.includes('.')) return 'a host name without a domain (an internal name)';
	return undefined;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/**
 * The credential's own loopback sandbox: its Base URL is plain http on a loopback host, and the
 * link is on a loopback host at the same port. Only there may a link be plain http or loopback.
 */
function onOwnSandbox(url: URL, baseUrl: string): boolean {
	let base: URL;
	try {
		base = new URL(baseUrl);
	} catch {
		return false;
	}
	return (
		base.protocol === 'http:' &&
		LOOPBACK.test(base.hostname) &&
		url.protocol === 'http:' &&
		LOOPBACK.test(url.hostname) &&
		url.port === base.port
	);
}

/** Why a link may not be fetched; undefined when it may. Never repeats the link (it is signed). */
export function downloadLinkProblem(link: string, baseUrl: string): string | undefined {
	let url: URL;
	try {
		url = new URL(link);
	} catch {
		return 'it is not a valid address';
	}
	if (onOwnSandbox(url, baseUrl)) return undefined;
	if (url.protocol !== 'https:') return `it is not https (${url.protocol.replace(/:$/, '')})`;
	if (url.username || url.password) return 'it carries a user name or password';
	const problem = hostProblem(url.hostname);
	return problem ? `its host is ${problem}` : undefined;
}
