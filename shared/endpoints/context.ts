import type { z } from 'zod/v4';
import type { ApiCore } from '../core/request';
import { endpointRef } from '../errors';
import { validateInput } from '../schemas/inputs';
import type { EndpointId } from '../spec';

/** Per-call options every endpoint function accepts as its last argument. */
export interface RequestOptions {
	signal?: AbortSignal;
}

/** The parts of a request an endpoint fills from its validated input. */
export interface RequestParts {
	params?: Record<string, string | number>;
	query?: Record<string, string>;
	body?: unknown;
}

/** What an endpoint group needs: validate input for an endpoint, then call it. */
export class EndpointContext {
	constructor(readonly core: ApiCore) {}

	validate<S extends z.ZodType>(endpoint: EndpointId, schema: S, input: unknown): z.output<S> {
		return validateInput(endpointRef(endpoint), schema, input);
	}

	call<T>(
		endpoint: EndpointId,
		schema: z.ZodType<T>,
		request: RequestParts,
		options?: RequestOptions,
	): Promise<T> {
		return this.core.call({ endpoint, schema, ...request, signal: options?.signal });
	}

	/**
	 * An endpoint function: validate the input (refusing before anything is sent), build the
	 * request from the validated values, send it, and parse the answer with `output`.
	 */
	endpoint<S extends z.ZodType, T>(
		endpoint: EndpointId,
		input: S,
		output: z.ZodType<T>,
		build: (valid: z.output<S>) => RequestParts,
	): (input: z.input<S>, options?: RequestOptions) => Promise<T> {
		// Not an async function: one returning the call's promise would wrap it in a second one,
		// three microtasks more on every call. Refusals still arrive as a rejection, never a throw.
		return (raw, options) => {
			let request: RequestParts;
			try {
				request = build(this.validate(endpoint, input, raw));
			} catch (error) {
				return Promise.reject(error instanceof Error ? error : new Error(String(error)));
			}
			return this.call(endpoint, output, request, options);
		};
	}

	/** An endpoint without input (E1, E2, E26, E27). */
	endpointWithoutInput<T>(
		endpoint: EndpointId,
		output: z.ZodType<T>,
	): (options?: RequestOptions) => Promise<T> {
		return (options) => this.call(endpoint, output, {}, options);
	}
}
