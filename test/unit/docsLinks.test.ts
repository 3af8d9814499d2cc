/**
 * The documentation's links hold: every page a codex file (nodes/*\/*.node.json) or the
 * credential's documentationUrl names exists with the section it names, and every relative link
 * in the README, the CHANGELOG and docs/*.md points to a file that exists (and, for a markdown
 * page, to a heading that exists). Anchors are derived
 * from headings as GitHub derives them, since GitHub is where n8n's "Documentation" links land.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

const ROOT = resolve(__dirname, '../..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { homepage: string };
/** The repository's page on GitHub, as package.json's homepage gives it (without `#readme`). */
const REPO_URL = PACKAGE.homepage.replace(/#.*$/, '');

/** Text outside fenced code blocks, where neither headings nor links count. */
function proseLines(markdown: string): string[] {
	let fenced = false;
	return markdown.split('\n').filter((line) => {
		if (/^\s*(```|~~~)/.test(line)) {
			fenced = !fenced;
			return false;
		}
		return !fenced;
	});
}

/**
 * GitHub's anchor for a heading: the rendered text (no markup) lower-cased, every character but
 * letters, digits, spaces, hyphens and underscores removed, spaces made hyphens; a repeated
 * anchor gets `-1`, `-2`, … in order.
 */
export function githubAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const line of proseLines(markdown)) {
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		const html = line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g);
		for (const match of html) anchors.add(match[1]);
		if (!heading) continue;
		const text = heading[1]
			.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
			.replace(/`/g, '')
			.replace(/(\*\*|__|\*)/g, '')
			.replace(/<[^>]+>/g, '');
		const base = text
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** Relative link targets in a markdown page (inline code left out), images included. */
function relativeLinks(markdown: string): string[] {
	// The whole text at once: a link's words may wrap onto the next line.
	const prose = proseLines(markdown).join('\n').replace(/`[^`\n]*`/g, '');
	return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
		.map((match) => match[1])
		.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with `target` (a path relative to `fromDir`, an optional `#anchor`), or undefined. */
function brokenTarget(fromDir: string, target: string, fromFile: string): string | undefined {
	const [path, anchor] = target.split('#', 2) as [string, string | undefined];
	const file = path ? resolve(fromDir, decodeURIComponent(path)) : fromFile;
	if (!file.startsWith(ROOT)) return `${target}: outside the repository`;
	if (!existsSync(file)) return `${target}: no file ${relative(ROOT, file)}`;
	if (anchor === undefined || anchor === '') return undefined;
	if (statSync(file).isDirectory() || !file.endsWith('.md')) return `${target}: an anchor on a file that is not a markdown page`;
	const anchors = githubAnchors(readFileSync(file, 'utf8'));
	return anchors.has(decodeURIComponent(anchor)) ? undefined : `${target}: no heading #${anchor} in ${relative(ROOT, file)}`;
}

const PAGES = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

function codexFiles(): string[] {
	return readdirSync(join(ROOT, 'nodes'))
		.flatMap((dir) => (statSync(join(ROOT, 'nodes', dir)).isDirectory() ? readdirSync(join(ROOT, 'nodes', dir)).map((f) => `nodes/${dir}/${f}`) : []))
		.filter((file) => file.endsWith('.node.json'));
}

/** Every documentation URL in a codex file. */
function codexUrls(file: string): string[] {
	const codex = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as { resources?: Record<string, Array<{ url: string }>> };
	return Object.values(codex.resources ?? {}).flatMap((links) => links.map((link) => link.url));
}

/** The credential's `documentationUrl`, read from its source (the class needs n8n to load). */
function credentialUrls(): string[] {
	return readdirSync(join(ROOT, 'credentials'))
		.filter((file) => file.endsWith('.credentials.ts'))
		.flatMap((file) => [...readFileSync(join(ROOT, 'credentials', file), 'utf8').matchAll(/documentationUrl\s*=\s*'([^']+)'/g)].map((m) => m[1]));
}

/** What is wrong with a documentation URL of this repository on GitHub, or undefined. */
function brokenRepoUrl(url: string): string | undefined {
	const match = new RegExp(`^${REPO_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/blob/main/([^#]+))?(?:#(.+))?$`).exec(url);
	if (!match) return `${url}: not a page of ${REPO_URL}`;
	const [, path = 'README.md', anchor] = match;
	const broken = brokenTarget(ROOT, anchor ? `${path}#${anchor}` : path, join(ROOT, 'README.md'));
	return broken ? `${url}: ${broken}` : undefined;
}

describe('GitHub anchors', () => {
	it('are derived from headings as GitHub derives them', () => {
		const anchors = githubAnchors(
			['# Title', '## Scaling: n8n queue mode', '## AI assistants (MCP)', '### `outcome` and *Simplify*', '## Notes', '## Notes', '```sh', '# not a heading', '```'].join('\n'),
		);
		expect([...anchors]).toEqual(['title', 'scaling-n8n-queue-mode', 'ai-assistants-mcp', 'outcome-and-simplify', 'notes', 'notes-1']);
	});
});

describe('codex documentation links', () => {
	const files = codexFiles();

	it('finds the six codex files', () => {
		expect(files).toHaveLength(6);
	});

	it.each(files)('%s names pages and sections that exist', (file) => {
		const urls = codexUrls(file);
		expect(urls.length).toBeGreaterThan(0);
		expect(urls.map(brokenRepoUrl).filter(Boolean)).toEqual([]);
	});

	it("the credential's documentation URL names a section that exists", () => {
		const urls = credentialUrls();
		expect(urls).toHaveLength(1);
		expect(urls.map(brokenRepoUrl).filter(Boolean)).toEqual([]);
	});
});

describe('relative links in the documentation', () => {
	it.each(PAGES)('%s links to files and headings that exist', (page) => {
		const file = join(ROOT, page);
		const problems = relativeLinks(readFileSync(file, 'utf8'))
			.map((target) => brokenTarget(dirname(file), target, file))
			.filter((problem): problem is string => problem !== undefined);
		expect(problems).toEqual([]);
	});
});
