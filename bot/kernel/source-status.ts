/** What `/drive health`, `/readyz` and `/metrics` show about a source. */
export interface SourceStatus {
	kind: 'poll' | 'push';
	/** Worst case, in seconds, for an event on any asset to be seen: now minus the oldest read-through. */
	lagSeconds: number;
	/** The same for busy assets (open alert or an alert in the last day); poll only. */
	busyLagSeconds?: number;
	/** `source.lagWarningSeconds`: above it the lag is warned about (log, and Slack once). */
	lagThresholdSeconds: number;
	/** The last pass plan, in words; poll only. */
	plan?: string;
	/** Connectivity's E8 reads beside polling, in words: their pace and how late an outage is seen (B70). */
	connectivity?: string;
	assets?: number;
	setAside?: { events: number; cbm: number };
	/** Push: connected receivers out of configured. */
	receivers?: { connected: number; configured: number };
	/** Push: messages handled, and second deliveries of one message (another user's) merged away. */
	merged?: { handled: number; duplicates: number };
}
