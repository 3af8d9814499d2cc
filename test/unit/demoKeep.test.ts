/**
 * What the demo carries from one start to the next (test/e2e/demoKeep.ts): the examples point at
 * the files folder, and of the last run's workflows every one but an example left as loaded is
 * kept, without the triggers' memory of the sandbox that is gone.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { keepWorkflows, pointAtFiles, workflowHash } from '../e2e/demoKeep';

describe('the demo keeps what the user made', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'sl-demo-keep-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it("points the examples' files at the files folder", () => {
		const example = JSON.stringify({ nodes: [{ parameters: { sheet: '.n8n-files/sample-bordereau.csv' } }] });
		expect(pointAtFiles(example, '/home/lead/sl/demo-files')).toContain('"/home/lead/sl/demo-files/sample-bordereau.csv"');
	});

	it('keeps the workflows the user made or changed, not an example left as loaded', () => {
		const exported = join(dir, 'export');
		const kept = join(dir, 'files', 'workflows');
		mkdirSync(exported);
		mkdirSync(kept, { recursive: true });
		writeFileSync(join(kept, 'gone.json'), '{}');
		const example = { id: 'slExampleSheet01', name: 'File a bordereau', nodes: [{ name: 'Your Sheet' }], connections: {} };
		const changed = { id: 'slExampleNotify1', name: 'Notify', nodes: [{ name: 'Mine' }], connections: {}, staticData: { seen: 1 } };
		const own = { id: 'abc', name: 'My filing', nodes: [{ name: 'Read' }], connections: {}, active: true, staticData: { seen: 2 } };
		for (const w of [example, changed, own]) writeFileSync(join(exported, `${w.id}.json`), JSON.stringify(w));
		const loaded = { slExampleSheet01: workflowHash(example), slExampleNotify1: workflowHash({ nodes: [{ name: 'Original' }], connections: {} }) };
		keepWorkflows(exported, kept, loaded);
		expect(readdirSync(kept).sort()).toEqual(['abc.json', 'slExampleNotify1.json']);
		const mine = JSON.parse(readFileSync(join(kept, 'abc.json'), 'utf8')) as Record<string, unknown>;
		expect(mine).toMatchObject({ name: 'My filing', active: true, staticData: null });
	});
});
