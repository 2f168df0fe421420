import { ENDPOINTS, type EndpointId } from '../../shared/spec';

export interface RouteMatch {
	id: EndpointId;
	params: Record<string, string>;
}

export type RouteResult =
	| { kind: 'match'; route: RouteMatch }
	| { kind: 'method'; allowed: string[] }
	| { kind: 'none' };

interface CompiledRoute {
	id: EndpointId;
	method: string;
	pattern: RegExp;
	names: string[];
}

/** Matches a path relative to the API prefix against the spec's E1..E30 templates. */
export class Router {
	private readonly routes: CompiledRoute[];

	constructor() {
		this.routes = (Object.keys(ENDPOINTS) as EndpointId[]).map((id) => {
			const { method, path } = ENDPOINTS[id];
			const names: string[] = [];
			const source = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
				names.push(name);
				return '([^/]+)';
			});
			return { id, method, pattern: new RegExp(`^${source}/?$`, 'i'), names };
		});
		// Literal segments beat parameters ("/asset/move" is E12, not E13 with id "move").
		this.routes.sort((a, b) => a.names.length - b.names.length);
	}

	match(method: string, path: string): RouteResult {
		const allowed: string[] = [];
		for (const route of this.routes) {
			const m = route.pattern.exec(path);
			if (!m) continue;
			if (route.method !== method) {
				allowed.push(route.method);
				continue;
			}
			const params: Record<string, string> = {};
			route.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1])));
			return { kind: 'match', route: { id: route.id, params } };
		}
		return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
	}
}
