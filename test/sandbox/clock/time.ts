// The service reports `created` in US Central without a zone; the sandbox does the same so
// clients that parse it meet the real format (including daylight-saving shifts).
const CENTRAL = new Intl.DateTimeFormat('en-US', {
	timeZone: 'America/Chicago',
	hourCycle: 'h23',
	year: 'numeric',
	month: '2-digit',
	day: '2-digit',
	hour: '2-digit',
	minute: '2-digit',
	second: '2-digit',
});

function centralParts(date: Date): Record<string, string> {
	const parts: Record<string, string> = {};
	for (const p of CENTRAL.formatToParts(date)) parts[p.type] = p.value;
	return parts;
}

/** `YYYY-MM-DD HH:MM:SS` in US Central. */
export function centralTimestamp(date: Date): string {
	const p = centralParts(date);
	return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** Today's date in US Central, the server's own calendar. */
export function centralDate(date: Date): string {
	const p = centralParts(date);
	return `${p.year}-${p.month}-${p.day}`;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in YYYY-MM-DD (rejects 2026-02-30). */
export function isValidDate(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	const m = DATE_RE.exec(value);
	if (!m) return false;
	const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
	return d.toISOString().slice(0, 10) === value;
}
