/** One request the simulator received. */
export interface RequestRecord {
	method: string;
	/** Path without the query string. */
	path: string;
	query: Record<string, string>;
	/** Wall time (ISO 8601) it arrived. */
	time: string;
	/** HTTP status answered; 0 while in flight or when the connection was reset. */
	status: number;
	/** 'E1'..'E30' for API calls, 'token' for the token endpoint, 'file' for temporary links. */
	endpoint?: string;
	/** The calling organization, once its token was accepted. */
	orgId?: number;
}

/** The log tests read to assert what was (or was not) sent. */
export class RequestLog {
	private records: RequestRecord[] = [];
	private active = 0;
	private peak = 0;

	/** Requests received and not yet answered (or reset). */
	get inFlight(): number {
		return this.active;
	}

	/** The most requests in flight at once since start or the last clear(): what a client's concurrency really was. */
	get peakInFlight(): number {
		return this.peak;
	}

	/** Every request since start or the last clear(), oldest first. */
	get entries(): readonly RequestRecord[] {
		return this.records;
	}

	get count(): number {
		return this.records.length;
	}

	/** API calls only (E1..E30), optionally of one endpoint. */
	api(endpoint?: string): RequestRecord[] {
		return this.records.filter(
			(r) => r.endpoint?.startsWith('E') && (endpoint === undefined || r.endpoint === endpoint),
		);
	}

	/** Records a request that arrived; `settled` is called once its answer is sent or its connection ends. */
	push(record: RequestRecord): { settled(): void } {
		this.records.push(record);
		this.active++;
		if (this.active > this.peak) this.peak = this.active;
		// Bounded so a long demo run does not grow without end.
		if (this.records.length > 100_000) this.records = this.records.slice(-50_000);
		let open = true;
		return {
			settled: () => {
				if (open) this.active--;
				open = false;
			},
		};
	}

	clear(): void {
		this.records = [];
		this.peak = this.active;
	}
}
