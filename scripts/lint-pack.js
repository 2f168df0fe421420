// `npm run lint:n8n`: n8n's own lint command (`n8n-node lint`: strict mode, so the root
// eslint.config.mjs must be n8n's template unmodified, with n8n Cloud support on) twice:
// 1. on this tree, as a bare `npx n8n-node lint` at the root runs it: the template config over
//    every file (ESLint's config lookup from each file is off), so each Node program's header
//    naming the n8n Cloud rules it is exempt from is what lets it pass (`npm run lint` lints each
//    folder by its own config);
// 2. on the pack's source alone, as it would be in a repository of its own: package.json, the
//    template config, nodes/, credentials/ and the shared/ modules the built pack contains
//    (scripts/pack.js walks them), with no flag at all.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { PRODUCTS, builtPath, walk } = require('./pack');

const root = path.resolve(__dirname, '..');
const n8nNode = path.join(root, 'node_modules', '.bin', 'n8n-node');

function lint(cwd, env, label) {
	console.log(`n8n-node lint: ${label}`);
	execFileSync(n8nNode, ['lint'], { cwd, env: { ...process.env, ...env }, stdio: 'inherit' });
}

function packSourceTree() {
	const product = PRODUCTS.find((p) => p.id === 'n8n-pack');
	const manifest = JSON.parse(fs.readFileSync(path.join(root, product.manifest), 'utf8'));
	const entries = [...manifest.n8n.nodes, ...manifest.n8n.credentials].map((p) =>
		builtPath(product, p),
	);
	if (!entries.every((e) => fs.existsSync(e)))
		throw new Error('the pack is not built: run npm run build');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dm-pack-source-'));
	const copy = (relative) => {
		fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
		fs.cpSync(path.join(root, relative), path.join(dir, relative), { recursive: true });
	};
	for (const relative of [
		'package.json',
		'eslint.config.mjs',
		'tsconfig.json',
		'nodes',
		'credentials',
	])
		copy(relative);
	for (const file of walk(entries).files) {
		const source = path.relative(path.join(root, 'dist'), file).replace(/\.js$/, '.ts');
		if (source.startsWith('shared')) copy(source);
	}
	fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
	return dir;
}

try {
	lint(
		root,
		{ ESLINT_FLAGS: '' },
		'this tree as `npx n8n-node lint` sees it (the template config over every file)',
	);
	const dir = packSourceTree();
	try {
		lint(dir, { ESLINT_FLAGS: '' }, `the pack's source alone (${dir})`);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
} catch (error) {
	console.error(`npm run lint:n8n failed: ${error.message}`);
	process.exit(1);
}
