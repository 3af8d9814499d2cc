import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The nearest directory holding package.json, searched upward from this file (works from src and from .cache). */
export function findRepoRoot(start: string = __dirname): string {
	let dir = start;
	for (;;) {
		if (existsSync(join(dir, 'package.json'))) return dir;
		const parent = dirname(dir);
		if (parent === dir) throw new Error(`sandbox: no package.json found above ${start}`);
		dir = parent;
	}
}
