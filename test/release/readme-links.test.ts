/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The README each package carries (scripts/pack.js, scripts/readme-links.js): its guide from the
// tree with every link absolute, to the repository at the release's tag, so that the links lead
// somewhere on npm's page and in n8n's panel. test/products checks the READMEs in the tarballs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { linkTargets, packedLinkProblem, ROOT } from '../docs/markdown';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PRODUCTS, packedReadme } = require('../../scripts/pack') as {
	PRODUCTS: { id: string; readme: string }[];
	packedReadme(product: { id: string; readme: string }): string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { absoluteLinks } = require('../../scripts/readme-links') as {
	absoluteLinks(
		markdown: string,
		where: { root: string; source: string; repository: string; tag: string },
	): string;
};

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	version: string;
};
const RELEASE = {
	repository: 'n8n-nodes-drive-monitoring/n8n-nodes-drive-monitoring',
	tag: `v${manifest.version}`,
};
const GITHUB = `https://github.com/${RELEASE.repository}`;
const RAW = `https://raw.githubusercontent.com/${RELEASE.repository}`;

test("every packed README's links are absolute and reach a file, folder or heading of the tree at the release's tag", () => {
	const broken = PRODUCTS.flatMap((product) =>
		linkTargets(packedReadme(product)).flatMap(({ line, target }) => {
			const why = packedLinkProblem(target, RELEASE);
			return why ? [`${product.readme}:${line} (${target}): ${why}`] : [];
		}),
	);
	expect(broken).toEqual([]);
	const bot = packedReadme(PRODUCTS.find((p) => p.id === 'bot')!);
	expect(bot).toContain(`(${GITHUB}/blob/${RELEASE.tag}/docs/reference/bot-commands.md)`);
	expect(bot).toContain(`(${GITHUB}/blob/${RELEASE.tag}/bench/README.md)`);
	const pack = packedReadme(PRODUCTS.find((p) => p.id === 'n8n-pack')!);
	expect(pack).toContain(`(${GITHUB}/blob/${RELEASE.tag}/shared/README.md)`);
	expect(pack).toContain(`(${RAW}/${RELEASE.tag}/docs/screenshots/node-output.png)`);
});

describe('absoluteLinks', () => {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dm-readme-links-'));
	afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
	for (const file of ['docs/guide.md', 'docs/img/a b.png', 'bench/README.md', 'shared/x.ts']) {
		fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
		fs.writeFileSync(path.join(root, file), '');
	}
	const where = { root, source: 'docs/guide.md', ...RELEASE };
	const at = (kind: string, file: string) => `${GITHUB}/${kind}/${RELEASE.tag}/${file}`;

	test('pages, folders, anchors and images of the tree become links to the repository at the tag', () => {
		const markdown = [
			'See [the bench](../bench/README.md#figures) and [shared/](../shared/),',
			'[a heading](#usage), ![shot](img/a%20b.png "title") and',
			'[a badge ![b](img/a%20b.png)](../bench/README.md), <img src="img/a b.png">,',
			'[across',
			'lines](guide.md) and [the web](https://nodejs.org/en/download).',
			'',
			'[ref]: ../bench/README.md',
		].join('\n');
		expect(absoluteLinks(markdown, where)).toBe(
			[
				`See [the bench](${at('blob', 'bench/README.md')}#figures) and [shared/](${at('tree', 'shared')}),`,
				`[a heading](${at('blob', 'docs/guide.md')}#usage), ![shot](${RAW}/${RELEASE.tag}/docs/img/a%20b.png "title") and`,
				`[a badge ![b](${RAW}/${RELEASE.tag}/docs/img/a%20b.png)](${at('blob', 'bench/README.md')}), <img src="${RAW}/${RELEASE.tag}/docs/img/a%20b.png">,`,
				'[across',
				`lines](${at('blob', 'docs/guide.md')}) and [the web](https://nodejs.org/en/download).`,
				'',
				`[ref]: ${at('blob', 'bench/README.md')}`,
			].join('\n'),
		);
	});

	test('code is left as it is: fenced blocks and code spans', () => {
		const markdown = [
			'Run `[x](../bench/README.md)` or ``a `[y](guide.md)` b``:',
			'```md',
			'[z](../bench/README.md)',
			'```',
			'~~~',
			'![w](img/a%20b.png)',
			'~~~',
		].join('\n');
		expect(absoluteLinks(markdown, where)).toBe(markdown);
	});

	test('a link to what the tree does not have, or to outside it, fails the pack with the page and the link', () => {
		expect(() => absoluteLinks('[gone](reference/gone.md)', where)).toThrow(
			'docs/guide.md links to reference/gone.md: docs/reference/gone.md is not in the tree',
		);
		expect(() => absoluteLinks('[up](../../elsewhere.md)', where)).toThrow(
			'docs/guide.md links to ../../elsewhere.md, which is outside the repository',
		);
	});
});

test('the check of a packed README finds relative links, missing files, wrong tags and anchors', () => {
	const problems = (markdown: string) =>
		linkTargets(markdown).map(({ target }) => packedLinkProblem(target, RELEASE));
	expect(
		problems(
			[
				'[a](reference/bot-commands.md) ![b](screenshots/node-output.png)',
				`[c](${GITHUB}/blob/${RELEASE.tag}/docs/no-such.md) [d](${GITHUB}/blob/v0.0.1/README.md)`,
				`[e](${GITHUB}/blob/${RELEASE.tag}/README.md#no-such-heading) [f](${GITHUB}/tree/${RELEASE.tag}/README.md)`,
				`<img src="${RAW}/${RELEASE.tag}/docs/screenshots/node-output.png"> [g](${GITHUB}/blob/${RELEASE.tag}/docs/slack-bot.md#the-slack-bot)`,
				'[ref]: docs/slack-bot.md',
			].join('\n'),
		),
	).toEqual([
		'not an absolute link: on npm and in n8n it leads nowhere',
		'not an absolute link: on npm and in n8n it leads nowhere',
		'docs/no-such.md is not in the tree',
		`names v0.0.1, not the release's tag ${RELEASE.tag}`,
		'README.md has no heading #no-such-heading',
		'README.md is a file, linked as a folder (tree/)',
		undefined,
		undefined,
		'not an absolute link: on npm and in n8n it leads nowhere',
	]);
});
