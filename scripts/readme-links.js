// A packed README is a guide of the tree (docs/slack-bot.md, ...) read where the tree is not: on
// npm's page and in n8n's community-node panel. Its relative links and image sources would lead
// nowhere there, so each becomes an absolute link to the file in the repository at the release's
// tag: pages and folders on github.com (blob/ and tree/), images from raw.githubusercontent.com
// (npm shows an image only from a URL that answers with the image itself). A link to what the
// tree does not have, or to outside it, fails the pack.
const fs = require('node:fs');
const path = require('node:path');

/** Code (fenced blocks, inline code spans) is shown as it is: its text is no link. */
const FENCE = /^ {0,3}(```|~~~)/;
// A run of backticks, then the same run closing it, not across a blank line.
const CODE_SPAN = /(?<!`)(`+)(?!`)(?:(?!\n[ \t]*\n)[\s\S])*?[^`]\1(?!`)/g;

/** [text](target "title") and ![alt](source); the text may hold one level of brackets (a badge). */
const INLINE =
	/(!?)\[((?:[^[\]]|\[[^\]]*\])*)\]\(\s*(<[^>\n]*>|[^)\s]+)((?:\s+(?:"[^"]*"|'[^']*'))?\s*)\)/g;
/** [label]: target, a reference definition on a line of its own. */
const DEFINITION = /^( {0,3}\[[^\]]+\]:\s*)(<[^>\n]*>|\S+)/gm;
/** src="..." and href="..." of HTML in the Markdown. */
const ATTRIBUTE = /\b(src|href)(\s*=\s*)(["'])([^"']*)\3/gi;

/**
 * The absolute URL for a target of `source` (a path of the tree, relative to `root`), or the
 * target unchanged when it is absolute already (https:, mailto:, ...).
 */
function absoluteTarget(target, image, { root, source, repository, tag }) {
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return target;
	const [pathPart, anchor] = target.split('#', 2);
	const file = pathPart
		? path.posix.normalize(path.posix.join(path.posix.dirname(source), decodeURI(pathPart)))
		: source;
	if (file.startsWith('../') || path.posix.isAbsolute(file))
		throw new Error(`${source} links to ${target}, which is outside the repository`);
	const onDisk = path.join(root, file);
	if (!fs.existsSync(onDisk))
		throw new Error(`${source} links to ${target}: ${file} is not in the tree`);
	const encoded = encodeURI(file.replace(/\/$/, ''));
	const hash = anchor === undefined ? '' : `#${anchor}`;
	if (image) return `https://raw.githubusercontent.com/${repository}/${tag}/${encoded}`;
	const kind = fs.statSync(onDisk).isDirectory() ? 'tree' : 'blob';
	return `https://github.com/${repository}/${kind}/${tag}/${encoded}${hash}`;
}

/** Rewrites the links of prose (code spans already taken out). */
function rewriteProse(text, where) {
	const inline = (match, bang, label, target, title) => {
		const bare = target.startsWith('<') ? target.slice(1, -1) : target;
		return `${bang}[${label.replace(INLINE, inline)}](${absoluteTarget(bare, bang === '!', where)}${title})`;
	};
	return text
		.replace(INLINE, inline)
		.replace(DEFINITION, (match, head, target) => {
			const bare = target.startsWith('<') ? target.slice(1, -1) : target;
			return `${head}${absoluteTarget(bare, /\.(png|jpe?g|gif|svg|webp)$/i.test(bare), where)}`;
		})
		.replace(
			ATTRIBUTE,
			(match, name, equals, quote, target) =>
				`${name}${equals}${quote}${absoluteTarget(target, name.toLowerCase() === 'src', where)}${quote}`,
		);
}

/**
 * `markdown` (the file `source` of the tree under `root`) with every relative link and image
 * source made absolute: to `repository` (owner/name) at `tag`.
 */
function absoluteLinks(markdown, { root, source, repository, tag }) {
	const where = { root, source, repository, tag };
	const out = [];
	let prose = [];
	let fence;
	const flush = () => {
		if (prose.length === 0) return;
		const spans = [];
		const masked = prose
			.join('\n')
			.replace(CODE_SPAN, (span) => `\u0000${spans.push(span) - 1}\u0000`);
		out.push(rewriteProse(masked, where).replace(/\u0000(\d+)\u0000/g, (m, i) => spans[Number(i)]));
		prose = [];
	};
	for (const line of markdown.split('\n')) {
		const marker = FENCE.exec(line)?.[1];
		if (fence) {
			out.push(line);
			if (marker === fence) fence = undefined;
		} else if (marker) {
			flush();
			fence = marker;
			out.push(line);
		} else prose.push(line);
	}
	flush();
	return out.join('\n');
}

module.exports = { absoluteLinks };
