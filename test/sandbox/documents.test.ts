import axios from 'axios';
import { invoiceBody, useSandbox, type Row } from './testkit';

describe('documents', () => {
	const kit = useSandbox();
	const base = '/invoices/1001/documents';
	beforeEach(async () => {
		expect((await kit().api('t2').post('/invoices', invoiceBody())).status).toBe(201);
	});

	it('PUT by docUUID: 201 when new, 200 when existing (type and name may change)', async () => {
		const first = await kit().api('t2').put(`${base}/abc-123`, { type: 'SL2_Form', filename: 'sl2.pdf' });
		kit().conforms(first, 'PUT', '/invoices/{id}/documents/{doc}');
		expect(first.status).toBe(201);
		expect(first.data.data).toEqual({
			id: 5001,
			doc_type: 'sl2_form',
			file_name: 'sl2.pdf',
			mime_type: null,
			file_size: null,
			is_excluded: false,
			external_doc_uuid: 'abc-123',
			fetch_status: 'pending',
			url: null,
			url_expires_in_seconds: null,
			added: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
		});
		const again = await kit().api('t2').put(`${base}/abc-123`, { type: 'quote', filename: 'q.pdf' });
		kit().conforms(again, 'PUT', '/invoices/{id}/documents/{doc}');
		expect([again.status, again.data.data.id, again.data.data.doc_type, again.data.data.file_name]).toEqual([200, 5001, 'quote', 'q.pdf']);
		// An all-digit path value is still a docUUID on PUT: it makes a new document.
		const digits = await kit().api('t2').put(`${base}/5001`, { type: 'other' });
		expect([digits.status, digits.data.data.id, digits.data.data.external_doc_uuid]).toEqual([201, 5002, '5001']);
	});

	it('list, get by id or docUUID, delete (204); POST on the list is 405', async () => {
		await kit().api('t2').put(`${base}/abc-123`, { type: 'declaration_page' });
		const list = await kit().api('t1').get(base);
		kit().conforms(list, 'GET', '/invoices/{id}/documents');
		expect(list.data.data.documents.map((d: Row) => d.id)).toEqual([5001]);
		for (const ref of ['5001', 'abc-123']) {
			const one = await kit().api('t1').get(`${base}/${ref}`);
			kit().conforms(one, 'GET', '/invoices/{id}/documents/{doc}');
			expect(one.data.data.external_doc_uuid).toBe('abc-123');
		}
		const post = await kit().api('t2').post(base, { type: 'quote' });
		expect([post.status, post.data.error.code, post.headers.allow]).toEqual([405, 'METHOD_NOT_ALLOWED', 'GET']);
		kit().conforms(post, 'GET', '/invoices/{id}/documents');
		const del = await kit().api('t2').delete(`${base}/abc-123`);
		kit().conforms(del, 'DELETE', '/invoices/{id}/documents/{doc}');
		expect(del.status).toBe(204);
		const gone = await kit().api('t1').get(`${base}/5001`);
		expect([gone.status, gone.data.error.code]).toEqual([404, 'NOT_FOUND']);
		expect((await kit().api('t1').put(`${base}/x`, { type: 'quote' })).data.error.code).toBe('FORBIDDEN');
		expect((await kit().api('other-account-t2').get(base)).status).toBe(404);
	});

	it('422 on document fields; still allowed after the invoice is filed', async () => {
		const bad = await kit().api('t2').put(`${base}/${'u'.repeat(257)}`, { type: 'bad type!', filename: 'f'.repeat(256), mime_type: 'text/plain' });
		kit().conforms(bad, 'PUT', '/invoices/{id}/documents/{doc}');
		expect(bad.data.error.details.fields).toEqual({
			type: ['May contain only letters, digits, underscore or hyphen'],
			docUUID: ['Must not exceed 256 characters'],
			filename: ['Must not exceed 255 characters'],
			mime_type: ['Must be one of: application/pdf, image/png, image/jpeg, image/jpg'],
		});
		expect((await kit().api('t2').put(`${base}/a`, { type: 'x'.repeat(51) })).data.error.details.fields).toEqual({ type: ['Must not exceed 50 characters'] });
		expect((await kit().api('t2').put(`${base}/a`, { filename: 'a.pdf' })).data.error.details.fields).toEqual({ type: ['This field is required'] });
		const inside = await kit().api('t2').post('/invoices', invoiceBody({ documents: [{ docUUID: 'z' }] }));
		expect(inside.data.error.details.fields).toEqual({ documents: ['documents[0].type is required'] });
		await kit().control('/invoices/1001/status', { status: 'success' });
		expect((await kit().api('t2').put(`${base}/late`, { type: 'policy' })).status).toBe(201);
	});

	it('fetched documents get url, mime_type, file_size; the link downloads the bytes for 3600 s', async () => {
		await kit().api('t2').put(`${base}/abc-123`, { type: 'declaration_page' });
		await kit().control('/documents/5001/fetch', { fetch_status: 'fetching' });
		expect((await kit().api('t1').get(`${base}/5001`)).data.data).toMatchObject({ fetch_status: 'fetching', url: null });
		await kit().control('/documents/5001/fetch', { fetch_status: 'fetched' });
		const doc = (await kit().api('t1').get(`${base}/abc-123`)).data.data;
		expect(doc).toMatchObject({ fetch_status: 'fetched', mime_type: 'application/pdf', file_name: 'abc-123.pdf', url_expires_in_seconds: 3600 });
		const file = await axios.get(doc.url, { responseType: 'arraybuffer' });
		expect(file.headers['content-type']).toBe('application/pdf');
		const bytes = Buffer.from(file.data);
		expect(bytes.subarray(0, 8).toString()).toBe('%PDF-1.4');
		expect(bytes.length).toBe(doc.file_size);
		// Change the signature's first character (to '0' it was already '0' one time in 16: no change).
		const tampered = await axios.get(doc.url.replace(/sig=(.)/, (_m: string, c: string) => `sig=${c === '0' ? '1' : '0'}`), { validateStatus: () => true });
		expect([tampered.status, tampered.data.error.code]).toEqual([403, 'FORBIDDEN']);

		await kit().api('t2').put(`${base}/img`, { type: 'other', mime_type: 'image/png' });
		await kit().control('/documents/5002/fetch', { fetch_status: 'fetched', file_size: 2048 });
		const png = (await kit().api('t1').get(`${base}/img`)).data.data;
		const image = await axios.get(png.url, { responseType: 'arraybuffer' });
		expect([image.headers['content-type'], Buffer.from(image.data).length, png.file_name]).toEqual(['image/png', 2048, 'img.png']);
		const failed = await kit().control('/documents/5002/fetch', { fetch_status: 'failed' });
		expect(failed.data.data).toMatchObject({ fetch_status: 'failed', url: null, file_size: null });
	});
});
