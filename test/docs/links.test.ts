/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Every link in the documentation a reader follows: relative links reach a file of the tree, and
// an anchor reaches a heading of its page (GitHub's heading ids). External links are checked for
// form only; nothing is fetched.
import fs from 'node:fs';
import path from 'node:path';

import { headingIds, linkTargets, ROOT, treeFiles } from './markdown';

/** The Markdown files of the tree, outside generated trees. */
function markdownFiles(): string[] {
	return treeFiles('*.md').filter((f) => !f.startsWith('bench/results/'));
}

interface Link {
	file: string;
	line: number;
	target: string;
}

/** Every link target of a page outside code, with its line number. */
function linksOf(file: string): Link[] {
	return linkTargets(fs.readFileSync(path.join(ROOT, file), 'utf8')).map((l) => ({ file, ...l }));
}

function problem(link: Link): string | undefined {
	const { file, target } = link;
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
		if (/^mailto:/i.test(target))
			return /^mailto:[^@\s]+@[^@\s]+$/i.test(target) ? undefined : 'not an e-mail address';
		try {
			const url = new URL(target);
			return url.protocol === 'https:' || url.protocol === 'http:'
				? undefined
				: `unexpected scheme ${url.protocol}`;
		} catch {
			return 'not a URL';
		}
	}
	const [pathPart, anchor] = target.split('#', 2);
	const resolved = pathPart
		? path.normalize(path.join(path.dirname(file), decodeURIComponent(pathPart)))
		: file;
	if (resolved.startsWith('..')) return 'points outside the repository';
	const absolute = path.join(ROOT, resolved);
	if (!fs.existsSync(absolute)) return `${resolved} does not exist`;
	if (anchor !== undefined) {
		if (!resolved.endsWith('.md')) return `an anchor on ${resolved}, which is not a Markdown page`;
		if (!headingIds(fs.readFileSync(absolute, 'utf8')).has(anchor.toLowerCase()))
			return `${resolved} has no heading #${anchor}`;
	}
	return undefined;
}

test('the heading ids follow GitHub (so anchor checks mean what a reader clicks)', () => {
	const ids = headingIds(
		'# Two commands\n## `npm test` and CI\n```\n# not a heading\n```\n## Two commands\n### Q&A: push, MQTT 5',
	);
	expect([...ids]).toEqual(['two-commands', 'npm-test-and-ci', 'two-commands-1', 'qa-push-mqtt-5']);
});

test('every link and anchor in the README and the guides resolves', () => {
	const files = markdownFiles();
	expect(files).toEqual(
		expect.arrayContaining([
			'README.md',
			'docs/n8n-pack.md',
			'docs/slack-bot.md',
			'bench/README.md',
		]),
	);
	const links = files.flatMap(linksOf);
	expect(links.length).toBeGreaterThan(20);
	const broken = links.flatMap((l) => {
		const why = problem(l);
		return why ? [`${l.file}:${l.line} (${l.target}): ${why}`] : [];
	});
	expect(broken).toEqual([]);
});

test('a broken link is reported with its file and line', () => {
	expect(problem({ file: 'README.md', line: 1, target: 'docs/no-such-guide.md' })).toBe(
		'docs/no-such-guide.md does not exist',
	);
	expect(
		problem({ file: 'docs/n8n-pack.md', line: 1, target: '../README.md#no-such-heading' }),
	).toBe('README.md has no heading #no-such-heading');
	expect(problem({ file: 'README.md', line: 1, target: 'https://example.com/x' })).toBeUndefined();
	expect(problem({ file: 'README.md', line: 1, target: 'README.md#two-commands' })).toBeUndefined();
});
