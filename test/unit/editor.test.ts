/**
 * How the nodes show in n8n's editor the trigger is offered with the Invoice node,
 * and single-resource nodes show no one-choice Resource dropdown.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { SurplusLinesCalculator } from '../../nodes/SurplusLinesCalculator/SurplusLinesCalculator.node';
import { SurplusLinesDocument } from '../../nodes/SurplusLinesDocument/SurplusLinesDocument.node';
import { SurplusLinesInvoice } from '../../nodes/SurplusLinesInvoice/SurplusLinesInvoice.node';
import { SurplusLinesInvoiceTrigger } from '../../nodes/SurplusLinesInvoiceTrigger/SurplusLinesInvoiceTrigger.node';
import { SurplusLinesReference } from '../../nodes/SurplusLinesReference/SurplusLinesReference.node';
import { SurplusLinesTrigger } from '../../nodes/SurplusLinesTrigger/SurplusLinesTrigger.node';

const nodes: INodeType[] = [
	new SurplusLinesInvoice(),
	new SurplusLinesDocument(),
	new SurplusLinesCalculator(),
	new SurplusLinesReference(),
	new SurplusLinesTrigger(),
	new SurplusLinesInvoiceTrigger(),
];

/**
 * n8n 2.8.4's node creator (editor-ui, generateMergedNodesAndActions): a visible trigger whose name
 * without "Trigger" is an action node's name is listed under that node's Triggers; others stand alone.
 */
function nodeCreatorPairs(types: INodeType[]): Record<string, string> {
	const visible = types.map((t) => t.description).filter((d) => !d.hidden);
	const apps = new Set(visible.filter((d) => !d.group.includes('trigger')).map((d) => d.name));
	const pairs: Record<string, string> = {};
	for (const trigger of visible.filter((d) => d.group.includes('trigger'))) {
		const app = trigger.name.replace('Trigger', '');
		pairs[trigger.name] = apps.has(app) ? app : '(alone)';
	}
	return pairs;
}

describe('in n8n’s node creator', () => {
	it('the trigger is listed under Surplus Lines Invoice, once', () => {
		expect(nodeCreatorPairs(nodes)).toEqual({ surplusLinesInvoiceTrigger: 'surplusLinesInvoice' });
	});

	it('both trigger types are registered, and the offered one is the same trigger', () => {
		const registered = (JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { n8n: { nodes: string[] } }).n8n.nodes;
		expect(registered).toEqual(
			expect.arrayContaining([
				'dist/nodes/SurplusLinesTrigger/SurplusLinesTrigger.node.js',
				'dist/nodes/SurplusLinesInvoiceTrigger/SurplusLinesInvoiceTrigger.node.js',
			]),
		);
		const saved = new SurplusLinesTrigger();
		const offered = new SurplusLinesInvoiceTrigger();
		expect(saved.description.hidden).toBe(true);
		expect(offered.description.hidden).toBeUndefined();
		expect({ ...offered.description, name: '', hidden: undefined }).toEqual({ ...saved.description, name: '', hidden: undefined });
		expect(offered.poll).toBe(saved.poll);
	});

	it('a node with one resource hides its Resource (kept, with its options, for saved workflows and the node creator)', () => {
		for (const node of [new SurplusLinesInvoice(), new SurplusLinesDocument(), new SurplusLinesCalculator()]) {
			const resource = node.description.properties.find((p) => p.name === 'resource')!;
			expect(resource.type).toBe('hidden');
			expect(resource.options).toHaveLength(1);
			expect(resource.default).toBe((resource.options![0] as { value: string }).value);
		}
		const reference = new SurplusLinesReference().description.properties.find((p) => p.name === 'resource')!;
		expect(reference.type).toBe('options');
	});
});
