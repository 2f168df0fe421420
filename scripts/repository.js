// Where a release lives: the GitHub repository the manifests name (package.json's repository)
// and the tag a release of a version gets. release.js checks the tag and the repository against
// these; pack.js points the packed READMEs' links at the repository at that tag.

/** The tag of a release: v1.2.3. */
function releaseTag(version) {
	return `v${version}`;
}

/** owner/name of a manifest's GitHub repository (string or { url }), or undefined when it names none. */
function githubRepository(manifest) {
	const url =
		typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	const match = /github\.com[/:]([^/]+)\/([^/]+?)(?:\.git)?\/?$/i.exec(url ?? '');
	return match ? `${match[1]}/${match[2]}` : undefined;
}

module.exports = { releaseTag, githubRepository };
