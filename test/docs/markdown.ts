/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads (it asks git which files the tree has): n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// What the documentation tests read in Markdown: GitHub's heading ids, the files of the tree, and
// every link target of a page, and whether an absolute link to the repository at a release's tag
// reaches a file of this tree (the packed READMEs link there).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..');

const listed = new Map<string, string[]>();

/** The files git tracks or would track (untracked, not ignored): what the repository will hold. */
export function treeFiles(pattern = '*'): string[] {
	if (!listed.has(pattern)) {
		const files = execFileSync(
			'git',
			['ls-files', '--cached', '--others', '--exclude-standard', pattern],
			{ cwd: ROOT, encoding: 'utf8' },
		);
		listed.set(
			pattern,
			files.split('\n').filter((f) => f && fs.existsSync(path.join(ROOT, f))),
		);
	}
	return listed.get(pattern)!;
}

/** GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingIds(markdown: string): Set<string> {
	const ids = new Set<string>();
	const seen = new Map<string, number>();
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
		const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const base = heading[1]
			.replace(/`|\*|_(?=\S)|(?<=\S)_|\[|\]\([^)]*\)/g, '')
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s-]/gu, '')
			.replace(/\s/g, '-');
		const n = seen.get(base) ?? 0;
		seen.set(base, n + 1);
		ids.add(n === 0 ? base : `${base}-${n}`);
	}
	return ids;
}

export interface Link {
	line: number;
	target: string;
}

/**
 * Every link target of a page outside code, generously: anything after `](` (inline links and
 * images, across lines too), reference definitions (`[label]: target`), the src and href of HTML
 * and autolinks (`<https://...>`), with the line each starts on.
 */
export function linkTargets(markdown: string): Link[] {
	let fenced = false;
	const prose = markdown
		.split('\n')
		.map((line) => {
			const fence = /^\s*(```|~~~)/.test(line);
			if (fence) fenced = !fenced;
			return fence || fenced ? '' : line.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length));
		})
		.join('\n');
	const lineOf = (index: number) => prose.slice(0, index).split('\n').length;
	const patterns = [
		/\]\(\s*<?([^)\s>]*)/g,
		/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)/gm,
		/\b(?:src|href)\s*=\s*["']?([^"'\s>]*)/gi,
		/<([a-z][a-z0-9+.-]*:[^>\s]*)>/gi,
	];
	return patterns
		.flatMap((pattern) =>
			[...prose.matchAll(pattern)].map((m) => ({ line: lineOf(m.index), target: m[1] })),
		)
		.sort((a, b) => a.line - b.line);
}

export interface Release {
	/** owner/name on GitHub */
	repository: string;
	tag: string;
}

/**
 * Why an absolute link of a packed README leads nowhere, or undefined when it leads somewhere: a
 * link into the repository must name the release's tag and a file (blob, raw) or folder (tree) of
 * this tree, an anchor a heading of that page; other web links are checked for form only.
 */
export function packedLinkProblem(target: string, release: Release): string | undefined {
	if (/^mailto:[^@\s]+@[^@\s]+$/i.test(target)) return undefined;
	let url: URL;
	try {
		url = new URL(target);
	} catch {
		return 'not an absolute link: on npm and in n8n it leads nowhere';
	}
	if (url.protocol !== 'https:') return `not https (${url.protocol})`;
	const repo = `/${release.repository}/`;
	const inRepository =
		(url.hostname === 'github.com' || url.hostname === 'raw.githubusercontent.com') &&
		url.pathname.toLowerCase().startsWith(repo.toLowerCase());
	if (!inRepository) return undefined;
	const rest = decodeURIComponent(url.pathname.slice(repo.length)).split('/');
	const [kind, tag, ...parts] = url.hostname === 'github.com' ? rest : ['raw', ...rest];
	if (!['blob', 'tree', 'raw'].includes(kind)) return undefined; // issues, releases, ...
	if (tag !== release.tag) return `names ${tag}, not the release's tag ${release.tag}`;
	const file = parts.join('/');
	const files = treeFiles();
	const isFile = files.includes(file);
	const isFolder = !isFile && files.some((f) => f.startsWith(`${file}/`));
	if (!isFile && !isFolder) return `${file} is not in the tree`;
	if (kind === 'tree' && !isFolder) return `${file} is a file, linked as a folder (tree/)`;
	if (kind !== 'tree' && !isFile) return `${file} is a folder, linked as a file (${kind}/)`;
	const anchor = url.hash.slice(1);
	if (anchor && kind !== 'raw') {
		if (!file.endsWith('.md')) return `an anchor on ${file}, which is not a Markdown page`;
		if (!headingIds(fs.readFileSync(path.join(ROOT, file), 'utf8')).has(anchor.toLowerCase()))
			return `${file} has no heading #${anchor}`;
	}
	return undefined;
}
