// tsc copies only TypeScript output; n8n also needs the icons (*.svg, *.png) and codex files
// (*.node.json) beside the compiled nodes, and the bot needs its manifest.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const assetPattern = /\.(svg|png|node\.json|yml)$/;

function copyAssets(dir) {
	for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) copyAssets(relative);
		else if (assetPattern.test(entry.name)) {
			fs.mkdirSync(path.join(root, 'dist', dir), { recursive: true });
			fs.copyFileSync(path.join(root, relative), path.join(root, 'dist', relative));
		}
	}
}

for (const dir of ['credentials', 'nodes', 'n8n-push', 'bot']) {
	if (fs.existsSync(path.join(root, dir))) copyAssets(dir);
}
