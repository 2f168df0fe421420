import type { SqlScope } from '../../state/scope';

/** Named positions the alert sources and daily jobs resume from after a restart (the poll's read-through, the CBM digest's day). */
export class Watermarks {
	constructor(private readonly scope: SqlScope) {}

	async get(name: string): Promise<string | undefined> {
		return (
			await this.scope.sql.get<{ value: string }>(
				'SELECT value FROM watermarks WHERE name = ?',
				name,
			)
		)?.value;
	}

	async set(name: string, value: string): Promise<void> {
		await this.scope.sql.run(
			'INSERT INTO watermarks (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
			name,
			value,
		);
	}
}
