#!/usr/bin/env node
// Run after `npm install` changes package-lock.json: `node scripts/complete-lock.js`.
//
// The npm registry our machines reach serves the Linux builds of platform-specific packages
// (@swc/core-*, @unrs/resolver-binding-*) and answers 404 for the macOS, Windows and other ones.
// `npm install` then writes a lock without them, and `npm ci` refuses that lock as out of sync
// with the parents' optionalDependencies. This adds the missing entries with the os/cpu/libc read
// from the package name, so `npm ci` accepts the lock and skips them on Linux x64 as it would the
// real ones; on another platform npm fetches them by name and version as usual.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const LOCK = path.join(__dirname, '..', 'package-lock.json');
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32'];
const CPU = ['arm64', 'arm', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'x64', 'wasm32'];

/** os, cpu and libc from a name such as `@swc/core-linux-arm-gnueabihf`, or null if it names no platform. */
function platformOf(name) {
	const parts = name.split('/').pop().split('-');
	const os = parts.find((part) => OS.includes(part));
	const cpu = parts.find((part) => CPU.includes(part));
	if (!os || !cpu) return null;
	const libc = parts.some((part) => part.startsWith('musl'))
		? 'musl'
		: parts.some((part) => part.startsWith('gnu'))
			? 'glibc'
			: undefined;
	return { os, cpu, libc };
}

/** The node_modules folder an entry sits in ('' for the root package), ending in a slash. */
function parentFolder(key) {
	const at = key.lastIndexOf('node_modules/');
	return at < 0 ? 'node_modules/' : key.slice(0, at + 'node_modules/'.length);
}

/** Whether npm, resolving `name` from `key` upward, finds an entry of that very version. */
function resolves(key, name, version) {
	for (let folder = parentFolder(key); ; ) {
		const found = lock.packages[`${folder}${name}`];
		if (found) return found.version === version;
		if (folder === 'node_modules/') return false;
		folder = parentFolder(folder.slice(0, -'/node_modules/'.length));
	}
}

const lock = JSON.parse(fs.readFileSync(LOCK, 'utf8'));
const added = [];
for (const [key, entry] of Object.entries(lock.packages)) {
	for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
		const platform = platformOf(name);
		if (!platform || !/^\d+\.\d+\.\d+/.test(version) || resolves(key, name, version)) continue;
		// Beside its parent: a nested parent (another version than the top-level one) needs its own.
		const target = `${parentFolder(key)}${name}`;
		lock.packages[target] = {
			version,
			cpu: [platform.cpu],
			...(entry.dev ? { dev: true } : {}),
			...(platform.libc ? { libc: [platform.libc] } : {}),
			optional: true,
			os: [platform.os],
		};
		added.push(`${name}@${version} (for ${key.replace(/^node_modules\//, '')})`);
	}
}
fs.writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
	added.length
		? `added ${added.length} platform entries:\n  ${added.join('\n  ')}`
		: 'lock already complete',
);
