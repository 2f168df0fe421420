/** A change refused because another replica has led since this one's epoch: the caller must stop acting. */
export class FencedOut extends Error {
	constructor(
		readonly mine: number,
		readonly current: number,
	) {
		super(
			`This replica's leadership (epoch ${mine}) ended; epoch ${current} leads now. The change was not made.`,
		);
		this.name = 'FencedOut';
	}
}
