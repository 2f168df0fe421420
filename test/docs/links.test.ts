import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Markdown links in the user documentation must lead somewhere: relative files exist, and #anchors name a heading
// of the target (GitHub's slug rules). External links are only checked for form; no test goes on the network.
const root = resolve(__dirname, '..', '..');

function markdownFiles(): string[] {
	const files = ['README.md', 'bench/README.md', 'n8n-push/README.md', 'simulator/README.md', 'shared/README.md']
		.map((f) => join(root, f))
		.filter((f) => existsSync(f));
	const walk = (dir: string): void => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (name.endsWith('.md')) files.push(path);
		}
	};
	walk(join(root, 'docs'));
	return files;
}

const withoutCode = (text: string): string => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');

function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/<[^>]+>/g, '')
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

function anchors(path: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const line of readFileSync(path, 'utf8').replace(/```[\s\S]*?```/g, '').split('\n')) {
		const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!match) continue;
		const base = slug(match[1].replace(/`/g, ''));
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		result.add(count === 0 ? base : `${base}-${count}`);
	}
	for (const m of readFileSync(path, 'utf8').matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) result.add(m[1]);
	return result;
}

function links(text: string): string[] {
	const found: string[] = [];
	for (const m of withoutCode(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push(m[1]);
	for (const m of withoutCode(text).matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)) found.push(m[1]);
	return found;
}

describe('Markdown links in README.md and docs/', () => {
	const files = markdownFiles();

	it('finds the documentation to check', () => {
		expect(files.map((f) => relative(root, f))).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md']));
	});

	it.each(files.map((f) => [relative(root, f), f]))('%s: every link and anchor resolves', (_name, file) => {
		const broken: string[] = [];
		for (const link of links(readFileSync(file, 'utf8'))) {
			if (/^mailto:/.test(link)) continue;
			if (/^[a-z][a-z0-9+.-]*:/i.test(link)) {
				if (!/^https?:\/\/[^\s/]+\.[^\s/]+/.test(link)) broken.push(`${link} (malformed URL)`);
				continue;
			}
			const [pathPart, anchor] = link.split('#', 2);
			const target = pathPart ? resolve(dirname(file), decodeURIComponent(pathPart)) : file;
			if (!existsSync(target)) {
				broken.push(`${link} (no file ${relative(root, target)})`);
				continue;
			}
			if (anchor && target.endsWith('.md') && !anchors(target).has(decodeURIComponent(anchor).toLowerCase()))
				broken.push(`${link} (no heading #${anchor} in ${relative(root, target)})`);
		}
		expect(broken).toEqual([]);
	});
});
