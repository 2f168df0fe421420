// Versions and releases: the four products share one version (package.json at the root,
// n8n-push/, bot/, simulator/ and package-lock.json), and CHANGELOG.md has an entry for it.
//
//   npm run version:set -- 0.2.0   every manifest, the lock and each product's range on another
//                                  product move to 0.2.0; CHANGELOG.md's Unreleased entries become
//                                  the 0.2.0 entry (dated today) under a new, empty Unreleased
//   npm run version:check [-- --tag v0.2.0] [--repository owner/name]
//                                  fails, saying what to fix, when the versions, the CHANGELOG,
//                                  the tag or the repository named in the manifests disagree
//   npm run release:publish [-- --dry-run]
//                                  `npm publish` of each tarball in artifacts/packages (from
//                                  `npm run pack`), with provenance; a version already on the
//                                  registry is skipped, so a failed run can be run again
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { PRODUCTS } = require('./pack');
const { githubRepository, releaseTag } = require('./repository');

const ROOT = path.resolve(__dirname, '..');
const SEMVER =
	/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

class ReleaseError extends Error {}

function readJson(file) {
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function writeJson(file, value) {
	fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function manifests(root) {
	return PRODUCTS.map((product) => ({
		file: product.manifest,
		json: readJson(path.join(root, product.manifest)),
	}));
}

/** The fields where one product names another (the bot's optional peer on the simulator). */
const DEPENDENCY_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'];

function siblingRanges(all) {
	const names = new Set(all.map((m) => m.json.name));
	return all.flatMap((m) =>
		DEPENDENCY_FIELDS.flatMap((field) =>
			Object.entries(m.json[field] ?? {})
				.filter(([name]) => names.has(name))
				.map(([name, range]) => ({ file: m.file, field, name, range })),
		),
	);
}

/** The CHANGELOG's second-level sections: `## [Unreleased]`, `## [0.1.0] - 2026-11-25`. */
function changelogSections(text) {
	const sections = [];
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const heading = /^## \[([^\]]+)\](?: - (\S+))?\s*$/.exec(lines[i]);
		if (heading) sections.push({ name: heading[1], date: heading[2], line: i, body: [] });
		else if (sections.length > 0 && !/^\[[^\]]+\]: /.test(lines[i]))
			sections[sections.length - 1].body.push(lines[i]);
	}
	return sections.map((s) => ({ ...s, body: s.body.join('\n').trim() }));
}

/** Every disagreement between the versions, the CHANGELOG, the tag and the repository; empty when none. */
function releaseProblems(root = ROOT, { tag, repository } = {}) {
	const problems = [];
	const all = manifests(root);
	const version = all[0].json.version;
	if (!SEMVER.test(version ?? ''))
		problems.push(
			`${all[0].file}: version "${version}" is not a semantic version (1.2.3 or 1.2.3-rc.1)`,
		);
	for (const m of all.slice(1)) {
		if (m.json.version !== version)
			problems.push(
				`${m.file}: version ${m.json.version}, but ${all[0].file} says ${version}: run npm run version:set -- ${version}`,
			);
	}
	const lock = readJson(path.join(root, 'package-lock.json'));
	if (lock.version !== version || lock.packages?.['']?.version !== version) {
		problems.push(
			`package-lock.json: version ${lock.version}, but ${all[0].file} says ${version}: run npm run version:set -- ${version}`,
		);
	}
	for (const r of siblingRanges(all)) {
		if (r.range !== version)
			problems.push(
				`${r.file}: ${r.field} names ${r.name} ${r.range}, but the products are at ${version}: run npm run version:set -- ${version}`,
			);
	}
	const repositoryUrl = (m) =>
		typeof m.json.repository === 'string' ? m.json.repository : m.json.repository?.url;
	const url = repositoryUrl(all[0]);
	for (const m of all) {
		if (!repositoryUrl(m))
			problems.push(
				`${m.file}: no repository: npm's provenance ties each package to the repository it names`,
			);
		else if (repositoryUrl(m) !== url)
			problems.push(`${m.file}: repository ${repositoryUrl(m)}, but ${all[0].file} names ${url}`);
	}
	if (
		repository &&
		url &&
		githubRepository(all[0].json)?.toLowerCase() !== repository.toLowerCase()
	) {
		problems.push(
			`the manifests name the repository ${url}, but this runs in ${repository}: npm refuses provenance for a package that names another repository`,
		);
	}

	const changelogFile = path.join(root, 'CHANGELOG.md');
	if (!fs.existsSync(changelogFile)) problems.push('CHANGELOG.md is missing');
	else {
		const text = fs.readFileSync(changelogFile, 'utf8');
		const sections = changelogSections(text);
		if (sections[0]?.name !== 'Unreleased')
			problems.push('CHANGELOG.md: the first section must be ## [Unreleased] (Keep a Changelog)');
		const entry = sections.find((s) => s.name === version);
		if (!entry)
			problems.push(
				`CHANGELOG.md has no ## [${version}] entry: write it, or move the Unreleased entries with npm run version:set -- ${version}`,
			);
		else {
			if (!/^\d{4}-\d{2}-\d{2}$/.test(entry.date ?? ''))
				problems.push(
					`CHANGELOG.md: ## [${version}] needs its release date (## [${version}] - YYYY-MM-DD)`,
				);
			if (entry.body === '') problems.push(`CHANGELOG.md: ## [${version}] says nothing`);
			if (sections.filter((s) => s.name !== 'Unreleased')[0] !== entry)
				problems.push(
					`CHANGELOG.md: ## [${version}] must be the newest release entry, right under Unreleased`,
				);
		}
		if (!new RegExp(`^\\[${version.replace(/\./g, '\\.')}\\]: \\S+`, 'm').test(text))
			problems.push(
				`CHANGELOG.md: no link for [${version}] at the end ([${version}]: <release or compare URL>)`,
			);
	}
	if (tag !== undefined && tag !== releaseTag(version))
		problems.push(
			`the tag ${tag} does not name the products' version ${version}: tag ${releaseTag(version)}, or run npm run version:set -- ${tag.replace(/^v/, '')} and tag again`,
		);
	return problems;
}

function compareVersions(a, b) {
	const [pa, pb] = [SEMVER.exec(a), SEMVER.exec(b)];
	for (let i = 1; i <= 3; i++)
		if (Number(pa[i]) !== Number(pb[i])) return Number(pa[i]) - Number(pb[i]);
	if (pa[4] === pb[4]) return 0;
	if (pa[4] === undefined) return 1;
	if (pb[4] === undefined) return -1;
	return pa[4] < pb[4] ? -1 : 1;
}

/** `npm run version:set -- <version>`: one version everywhere, the Unreleased entries under it. */
function setVersion(root, version, today = new Date().toISOString().slice(0, 10)) {
	if (!SEMVER.test(version ?? ''))
		throw new ReleaseError(
			`"${version}" is not a semantic version: npm run version:set -- 1.2.3 (or 1.2.3-rc.1)`,
		);
	const all = manifests(root);
	const current = all[0].json.version;
	if (compareVersions(version, current) <= 0)
		throw new ReleaseError(`${version} is not after the current version ${current}`);
	const changelogFile = path.join(root, 'CHANGELOG.md');
	const text = fs.readFileSync(changelogFile, 'utf8');
	const sections = changelogSections(text);
	const unreleased = sections.find((s) => s.name === 'Unreleased');
	if (!unreleased) throw new ReleaseError('CHANGELOG.md has no ## [Unreleased] section to release');
	if (unreleased.body === '')
		throw new ReleaseError(
			`CHANGELOG.md: nothing under ## [Unreleased]: write what changed in ${version} first`,
		);

	const names = new Set(all.map((m) => m.json.name));
	for (const m of all) {
		m.json.version = version;
		for (const field of DEPENDENCY_FIELDS)
			for (const name of Object.keys(m.json[field] ?? {}))
				if (names.has(name)) m.json[field][name] = version;
		writeJson(path.join(root, m.file), m.json);
	}
	const lockFile = path.join(root, 'package-lock.json');
	const lock = readJson(lockFile);
	lock.version = version;
	if (lock.packages?.['']) lock.packages[''].version = version;
	writeJson(lockFile, lock);

	const lines = text.split('\n');
	lines.splice(unreleased.line + 1, 0, '', `## [${version}] - ${today}`);
	let updated = lines.join('\n');
	// Keep a Changelog's links: Unreleased compares from the new tag; the new entry from the previous one.
	const unreleasedLink = /^\[Unreleased\]: (\S+)\/compare\/(\S+)\.\.\.HEAD$/m.exec(updated);
	if (unreleasedLink) {
		const [line, base, previous] = unreleasedLink;
		updated = updated.replace(
			line,
			`[Unreleased]: ${base}/compare/${releaseTag(version)}...HEAD\n[${version}]: ${base}/compare/${previous}...${releaseTag(version)}`,
		);
	}
	fs.writeFileSync(changelogFile, updated.replace(/\n{3,}/g, '\n\n'));
}

function npm(args, options = {}) {
	return execFileSync('npm', args, {
		cwd: ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
		...options,
	});
}

function alreadyPublished(name, version) {
	try {
		return (
			npm(['view', `${name}@${version}`, 'version'], {
				stdio: ['ignore', 'pipe', 'ignore'],
			}).trim() === version
		);
	} catch {
		return false; // E404: not published yet
	}
}

/** `npm run release:publish`: each tarball of `npm run pack`, a product before those that name it. */
function publish({ dryRun }) {
	const dir = path.join(ROOT, 'artifacts', 'packages');
	const listFile = path.join(dir, 'packages.json');
	if (!fs.existsSync(listFile))
		throw new ReleaseError('artifacts/packages/packages.json is missing: run npm run pack first');
	const version = readJson(path.join(ROOT, 'package.json')).version;
	const packed = readJson(listFile);
	const stale = packed.filter((p) => p.version !== version);
	if (stale.length > 0)
		throw new ReleaseError(
			`${stale.map((p) => p.tarball).join(', ')} not at ${version}: run npm run pack again`,
		);
	const published = new Set(
		packed.filter((p) => alreadyPublished(p.name, p.version)).map((p) => p.name),
	);
	for (const name of published)
		console.log(
			`${name}@${version}: already on the registry${dryRun ? ' (dry run with --force, which skips that check)' : ', skipped'}`,
		);
	for (const { args } of publishCommands(packed, dir, { dryRun, published })) {
		console.log(`npm ${args.join(' ').replace(`${ROOT}${path.sep}`, '')}`);
		npm(args, { stdio: 'inherit' });
	}
}

/**
 * The `npm publish` of each packed product (packages.json of `npm run pack`), a product before
 * those that require it; with provenance, or as a dry run. A pre-release goes to the next tag.
 * A product already on the registry at this version (`published`) is left out of a real run; a
 * dry run of it adds --force, or npm would refuse it for that alone (so CI keeps checking the
 * tarballs after a release, until the next version).
 */
function publishCommands(packed, dir, { dryRun, published = new Set() }) {
	const order = [...packed].sort(
		(a, b) => Number(a.requires.includes(b.name)) - Number(b.requires.includes(a.name)),
	);
	return order
		.filter((p) => dryRun || !published.has(p.name))
		.map((p) => ({
			name: p.name,
			args: [
				'publish',
				path.join(dir, p.tarball),
				'--access',
				'public',
				...(p.version.includes('-') ? ['--tag', 'next'] : []),
				...(dryRun
					? ['--dry-run', ...(published.has(p.name) ? ['--force'] : [])]
					: ['--provenance']),
			],
		}));
}

function option(args, name) {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : undefined;
}

function main(args) {
	const [command, ...rest] = args;
	if (command === 'set') {
		setVersion(ROOT, rest[0]);
		console.log(
			`version ${rest[0]}: ${PRODUCTS.map((p) => p.manifest).join(', ')}, package-lock.json and CHANGELOG.md`,
		);
	} else if (command === 'check') {
		const problems = releaseProblems(ROOT, {
			tag: option(rest, '--tag'),
			repository: option(rest, '--repository'),
		});
		if (problems.length > 0)
			throw new ReleaseError(`the release does not agree:\n  ${problems.join('\n  ')}`);
		console.log(
			`version ${readJson(path.join(ROOT, 'package.json')).version}: manifests, lock and CHANGELOG agree${option(rest, '--tag') ? `, and so does the tag ${option(rest, '--tag')}` : ''}`,
		);
	} else if (command === 'publish') publish({ dryRun: rest.includes('--dry-run') });
	else
		throw new ReleaseError(
			'usage: node scripts/release.js set <version> | check [--tag vX.Y.Z] [--repository owner/name] | publish [--dry-run]',
		);
}

if (require.main === module) {
	try {
		main(process.argv.slice(2));
	} catch (error) {
		console.error(`release: ${error instanceof ReleaseError ? error.message : error.stack}`);
		process.exit(1);
	}
}

module.exports = { releaseProblems, setVersion, changelogSections, publishCommands, ReleaseError };
