// Bytes a fetched document serves, so a Download operation gets a real file of the right type.

function tinyPdf(title: string): Buffer {
	const text = title.replace(/[()\\]/g, '').slice(0, 80);
	const stream = `BT /F1 12 Tf 36 96 Td (Sandbox document: ${text}) Tj ET`;
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let body = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((obj, i) => {
		offsets.push(Buffer.byteLength(body));
		body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
	});
	const xrefAt = Buffer.byteLength(body);
	body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
	body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
	return Buffer.from(body, 'latin1');
}

const PNG_1X1 = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64',
);
const JPEG_1X1 = Buffer.from(
	'/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
	'base64',
);

export function extensionFor(mime: string): string {
	if (mime === 'image/png') return '.png';
	if (mime === 'image/jpeg' || mime === 'image/jpg') return '.jpg';
	return '.pdf';
}

export function mimeFromName(name: string): string | null {
	const lower = name.toLowerCase();
	if (lower.endsWith('.pdf')) return 'application/pdf';
	if (lower.endsWith('.png')) return 'image/png';
	if (lower.endsWith('.jpg') || lower.endsWith('.jpeg')) return 'image/jpeg';
	return null;
}

/** The file's bytes; padded with newlines when a test asked for a larger file_size (viewers ignore trailing bytes). */
export function documentBytes(mime: string, title: string, size: number | null): Buffer {
	const base = mime === 'image/png' ? PNG_1X1 : mime.startsWith('image/') ? JPEG_1X1 : tinyPdf(title);
	if (size === null || size <= base.length) return base;
	return Buffer.concat([base, Buffer.alloc(Math.min(size, 10_000_000) - base.length, 0x0a)]);
}
