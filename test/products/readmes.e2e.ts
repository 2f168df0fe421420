/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test code, not code n8n loads (it reads the tarballs with tar): n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The README in each tarball of `npm run pack`, as npm's page and n8n's community-node panel show
// it: every link absolute, and each link into the repository names the release's tag and a file,
// folder or heading this tree has.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { PACKAGES_DIR } from '../../scripts/n8n/install-pack';
import { linkTargets, packedLinkProblem, ROOT } from '../docs/markdown';

interface PackedProduct {
	id: string;
	name: string;
	version: string;
	tarball: string;
}

const products = JSON.parse(
	fs.readFileSync(path.join(PACKAGES_DIR, 'packages.json'), 'utf8'),
) as PackedProduct[];
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	repository: { url: string };
};
const repository = /github\.com\/(.+?)(?:\.git)?$/.exec(manifest.repository.url)![1];

function readmeOf(product: PackedProduct): string {
	return execFileSync(
		'tar',
		['-xzOf', path.join(PACKAGES_DIR, product.tarball), 'package/README.md'],
		{
			encoding: 'utf8',
		},
	);
}

test('the four tarballs carry a README each', () => {
	expect(products.map((p) => p.id).sort()).toEqual(['bot', 'n8n-pack', 'n8n-push', 'simulator']);
	for (const product of products) expect(readmeOf(product)).toMatch(/^# /);
});

test("every link of every packed README is absolute and reaches the tree at the release's tag", () => {
	const links = products.flatMap((product) =>
		linkTargets(readmeOf(product)).map((link) => ({ ...link, product })),
	);
	expect(links.length).toBeGreaterThan(10);
	const broken = links.flatMap(({ product, line, target }) => {
		const why = packedLinkProblem(target, { repository, tag: `v${product.version}` });
		return why ? [`${product.tarball} README.md:${line} (${target}): ${why}`] : [];
	});
	expect(broken).toEqual([]);
});
