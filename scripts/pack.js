// `npm run pack`: every installable product of this tree as an npm tarball in artifacts/packages/.
//
// One `npm run build` compiles the whole tree to dist/. Each product then takes from dist/ only
// the files its entry points reach (require() followed from file to file), plus the icons and
// codex files beside its n8n nodes, into a staging folder with its own package.json,
// and `npm pack` makes the tarball there. Its README is its guide from the tree with every
// relative link made absolute to the repository at the release's tag (readme-links.js), since
// npm's page and n8n's panel show it where the tree is not. So the n8n pack carries the nodes, the credential and
// the parts of shared/ they import, and nothing of the bot, simulator, push, tests or benchmarks.
//
// The walk also lists the packages each product's code requires; a product whose code requires a
// package its package.json does not provide fails the build, and so does one whose package.json
// lists a dependency its code never requires (a passenger every install would pull). The n8n pack
// may require only what n8n Cloud's rules allow (the allowlist of @n8n/eslint-plugin-community-nodes).
//
// A product may use another product as a package: when its code requires that product's main
// module (the bot's demo requires ../simulator) and its package.json names that product (the bot
// names drive-monitoring-simulator as an optional peer), the walk stops there and the require is
// rewritten to the package's name, so the other product's code is not copied in.
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');
const { execFileSync } = require('node:child_process');
const os = require('node:os');
const { absoluteLinks } = require('./readme-links');
const { githubRepository, releaseTag } = require('./repository');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
// Staged outside the tree: the staged copies are build output, not sources to lint or test.
const buildRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dm-pack-'));
const outDir = path.join(root, 'artifacts', 'packages');
const rootManifest = readJson(path.join(root, 'package.json'));

/** What code n8n loads from a verified community package may import (no-restricted-imports). */
const N8N_CLOUD_ALLOWED = [
	'n8n-workflow',
	'ai-node-sdk',
	'@n8n/ai-node-sdk',
	'lodash',
	'moment',
	'p-limit',
	'luxon',
	'zod',
	'crypto',
	'node:crypto',
];

const PRODUCTS = [
	{
		id: 'n8n-pack',
		manifest: 'package.json',
		// Each package's page shows its own guide, not the repository's overview.
		readme: 'docs/n8n-pack.md',
		// n8n resolves n8n-workflow, zod and luxon from its own node_modules (it puts them on NODE_PATH).
		provided: ['n8n-workflow', 'zod', 'luxon'],
		allowedOnly: N8N_CLOUD_ALLOWED,
		published: [
			'name',
			'version',
			'description',
			'license',
			'author',
			'homepage',
			'repository',
			'bugs',
			'keywords',
			'files',
			'engines',
			'n8n',
			'peerDependencies',
		],
	},
	{
		id: 'n8n-push',
		manifest: 'n8n-push/package.json',
		readme: 'n8n-push/README.md',
		provided: ['n8n-workflow'],
		// In the tree its sources sit in n8n-push/; in its package, its nodes and credential sit in
		// dist/nodes and dist/credentials as n8n's tools expect (requires are rewritten to match).
		builtFrom: 'dist/n8n-push/',
	},
	{ id: 'bot', manifest: 'bot/package.json', readme: 'docs/slack-bot.md' },
	{ id: 'simulator', manifest: 'simulator/package.json', readme: 'simulator/README.md' },
];

function readJson(file) {
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function packageNameOf(specifier) {
	const parts = specifier.split('/');
	return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function resolveLocal(fromFile, specifier) {
	const base = path.resolve(path.dirname(fromFile), specifier);
	for (const candidate of [base, `${base}.js`, path.join(base, 'index.js')]) {
		if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
	}
	throw new Error(
		`${path.relative(root, fromFile)} requires ${specifier}, which the build did not produce`,
	);
}

/** Every product's main module as built in this tree, by package name. */
function productMains() {
	const mains = new Map();
	for (const product of PRODUCTS) {
		const manifest = readJson(path.join(root, product.manifest));
		if (manifest.main) mains.set(builtPath(product, manifest.main), manifest.name);
	}
	return mains;
}

/** The packages a manifest lets its code require: dependencies of every kind but dev. */
function declaredPackages(manifest) {
	return [manifest.dependencies, manifest.optionalDependencies, manifest.peerDependencies].flatMap(
		(deps) => Object.keys(deps ?? {}),
	);
}

/**
 * The compiled files reachable from the entries, and the packages they require. A local require
 * of a file in `external` (path => package name) counts as a require of that package.
 */
function walk(entries, external = new Map()) {
	const files = new Set();
	const packages = new Map();
	const queue = [...entries];
	while (queue.length > 0) {
		const file = queue.pop();
		if (files.has(file)) continue;
		files.add(file);
		const code = fs.readFileSync(file, 'utf8');
		for (const match of code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) {
			const specifier = match[1];
			const local = specifier.startsWith('.') ? resolveLocal(file, specifier) : undefined;
			if (local && external.has(local)) {
				if (!packages.has(external.get(local)))
					packages.set(external.get(local), path.relative(root, file));
			} else if (local) queue.push(local);
			else {
				const name =
					specifier.startsWith('node:') || builtinModules.includes(packageNameOf(specifier))
						? specifier
						: packageNameOf(specifier);
				if (!packages.has(name)) packages.set(name, path.relative(root, file));
			}
		}
	}
	return { files, packages };
}

/** Where a package path (dist/...) was built in this tree. */
function builtPath(product, packagePath) {
	return path.join(
		root,
		product.builtFrom ? packagePath.replace(/^dist\//, product.builtFrom) : packagePath,
	);
}

/** Where a file built in this tree goes in the package. */
function packagePath(product, file) {
	const relative = path.relative(root, file).split(path.sep).join('/');
	return product.builtFrom && relative.startsWith(product.builtFrom)
		? relative.replace(product.builtFrom, 'dist/')
		: relative;
}

function entriesOf(product, manifest) {
	const paths = [
		...(manifest.n8n?.nodes ?? []),
		...(manifest.n8n?.credentials ?? []),
		...Object.values(manifest.bin ?? {}),
		...(manifest.main ? [manifest.main] : []),
	];
	return paths.map((p) => builtPath(product, p));
}

/**
 * A compiled file's code with its relative requires pointing where the package puts their
 * targets, or naming the package that stands for them (external).
 */
function relocatedCode(product, file, external) {
	const code = fs.readFileSync(file, 'utf8');
	if (!product.builtFrom && external.size === 0) return code;
	const from = path.dirname(packagePath(product, file));
	return code.replace(/\brequire\(\s*(["'])(\.[^"']*)\1\s*\)/g, (match, quote, specifier) => {
		if (external.has(resolveLocal(file, specifier)))
			return `require(${quote}${external.get(resolveLocal(file, specifier))}${quote})`;
		if (!product.builtFrom) return match;
		let target = path
			.relative(from, path.dirname(packagePath(product, resolveLocal(file, specifier))))
			.split(path.sep)
			.join('/');
		target = path.posix.join(target || '.', path.basename(resolveLocal(file, specifier), '.js'));
		return `require(${quote}${target.startsWith('.') ? target : `./${target}`}${quote})`;
	});
}

function copy(from, to) {
	fs.mkdirSync(path.dirname(to), { recursive: true });
	fs.copyFileSync(from, to);
}

/**
 * The README a product's package carries: its guide in the tree, every relative link made
 * absolute to the repository the manifests name, at the tag of this version's release.
 */
function packedReadme(product) {
	const repository = githubRepository(rootManifest);
	if (!repository)
		throw new Error(
			'package.json names no GitHub repository: the packed READMEs link to the guides there',
		);
	return absoluteLinks(fs.readFileSync(path.join(root, product.readme), 'utf8'), {
		root,
		source: product.readme,
		repository,
		tag: releaseTag(rootManifest.version),
	});
}

function stage(product) {
	const manifest = readJson(path.join(root, product.manifest));
	manifest.version = rootManifest.version;
	const entries = entriesOf(product, manifest);
	for (const entry of entries) {
		if (!fs.existsSync(entry))
			throw new Error(`${product.id}: ${path.relative(root, entry)} is missing: run npm run build`);
	}
	const declared = new Set([...declaredPackages(manifest), ...(product.provided ?? [])]);
	const external = new Map(
		[...productMains()].filter(([, name]) => name !== manifest.name && declared.has(name)),
	);
	const { files, packages } = walk(entries, external);

	const problems = [];
	for (const [name, requiredBy] of packages) {
		const builtin = name.startsWith('node:') || builtinModules.includes(name);
		if (product.allowedOnly && !product.allowedOnly.includes(name))
			problems.push(`${name} (required by ${requiredBy}) is not allowed in code n8n Cloud loads`);
		else if (!builtin && !declared.has(name))
			problems.push(
				`${name} (required by ${requiredBy}) is not in ${product.manifest} dependencies`,
			);
	}
	// Packages loaded lazily through createRequire (the bot's charts) are called by name, not by require.
	const calledByName = (name) =>
		[...files].some((file) => fs.readFileSync(file, 'utf8').includes(`('${name}')`));
	for (const name of declaredPackages(manifest)) {
		if (!packages.has(name) && !calledByName(name))
			problems.push(
				`${name} is in ${product.manifest} dependencies but no code of the product requires it: every install would pull it for nothing`,
			);
	}
	if (problems.length > 0) throw new Error(`${product.id}:\n  ${problems.join('\n  ')}`);

	const dir = path.join(buildRoot, product.id);
	fs.rmSync(dir, { recursive: true, force: true });
	for (const file of files) {
		const target = path.join(dir, packagePath(product, file));
		fs.mkdirSync(path.dirname(target), { recursive: true });
		fs.writeFileSync(target, relocatedCode(product, file, external));
	}
	// Icons and codex files of n8n nodes and credentials sit beside the node files.
	const assetDirs = new Set(
		[...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])].map((p) =>
			path.dirname(builtPath(product, p)),
		),
	);
	for (const assetDir of assetDirs) {
		for (const name of fs.readdirSync(assetDir)) {
			if (/\.(svg|png|node\.json)$/.test(name))
				copy(
					path.join(assetDir, name),
					path.join(dir, packagePath(product, path.join(assetDir, name))),
				);
		}
	}

	const published = product.published
		? Object.fromEntries(
				product.published.filter((k) => k in manifest).map((k) => [k, manifest[k]]),
			)
		: manifest;
	delete published.devDependencies;
	delete published.scripts;
	fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
	if (product.readme) fs.writeFileSync(path.join(dir, 'README.md'), packedReadme(product));
	copy(path.join(root, 'LICENSE'), path.join(dir, 'LICENSE'));

	fs.mkdirSync(outDir, { recursive: true });
	const output = execFileSync('npm', ['pack', '--silent', '--pack-destination', outDir], {
		cwd: dir,
		encoding: 'utf8',
	});
	const tarball = path.join(outDir, output.trim().split('\n').pop());
	return {
		id: product.id,
		name: published.name,
		version: published.version,
		tarball,
		files: files.size,
		requires: [...packages.keys()].sort(),
	};
}

function main() {
	if (process.argv.includes('--refuse-root-pack')) {
		// The root's prepack: npm also runs it before `npm run pack` (a pre-script), which is fine;
		// `npm pack` / `npm publish` at the root would ship the whole development build.
		if (process.env.npm_command === 'run' || process.env.npm_command === 'run-script') return;
		throw new Error(
			'the root folder is not a package to pack as it is: run `npm run pack` and publish artifacts/packages/<tarball> (npm publish <tarball>)',
		);
	}
	const only = process.argv.slice(2);
	if (only.length === 0) fs.rmSync(outDir, { recursive: true, force: true });
	const results = PRODUCTS.filter((p) => only.length === 0 || only.includes(p.id)).map(stage);
	for (const r of results) {
		const kib = Math.round(fs.statSync(r.tarball).size / 1024);
		console.log(
			`${path.relative(root, r.tarball)}  ${kib} KiB, ${r.files} modules; requires: ${r.requires.join(', ') || 'nothing'}`,
		);
	}
	fs.rmSync(buildRoot, { recursive: true, force: true });
	fs.writeFileSync(
		path.join(outDir, 'packages.json'),
		`${JSON.stringify(
			results.map((r) => ({ ...r, tarball: path.relative(outDir, r.tarball) })),
			null,
			2,
		)}\n`,
	);
}

if (require.main === module) {
	try {
		main();
	} catch (error) {
		console.error(`npm run pack: ${error.message}`);
		process.exit(1);
	}
}

module.exports = { PRODUCTS, N8N_CLOUD_ALLOWED, walk, builtPath, packedReadme };
