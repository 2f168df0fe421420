import type { z } from 'zod/v4';
import type { ApiCore } from '../core/request';
import { endpointRef } from '../errors';
import { validateInput } from '../schemas/inputs';
import type { EndpointId } from '../spec';

/** Per-call options every endpoint function accepts as its last argument. */
export interface RequestOptions {
  signal?: AbortSignal;
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
    request: { params?: Record<string, string | number>; query?: Record<string, string>; body?: unknown },
    options?: RequestOptions,
  ): Promise<T> {
    return this.core.call({ endpoint, schema, ...request, signal: options?.signal });
  }
}
