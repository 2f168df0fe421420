/** A bounded set of recently seen keys; the oldest is forgotten first. */
export class RecentKeys {
	private readonly keys = new Set<string>();

	constructor(private readonly capacity: number) {}

	has(key: string): boolean {
		return this.keys.has(key);
	}

	add(key: string): void {
		this.keys.delete(key);
		this.keys.add(key);
		if (this.keys.size > this.capacity) this.keys.delete(this.keys.values().next().value as string);
	}

	get size(): number {
		return this.keys.size;
	}
}
