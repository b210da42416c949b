import { Ajv, type ValidateFunction } from 'ajv';
import { codesOf, unroutedCodes, type RouteContract } from '../api/contract/define.js';
import { addWireFormats } from '../api/contract/formats.js';
import { CONTRACTS } from '../api/contract/index.js';
import { bySpecificity, matchSegments, pathSegments, wirePath } from '../api/contract/paths.js';
import { HTTP_STATUS_BY_CODE } from '../api/errors.js';
import type { ErrorCode } from '../kernel/errors.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/**
 * Checks every answer against the route contracts (src/api/contract/): a success must carry the declared
 * status and match the response schema exactly (no field missing, none extra), and an error must be one the
 * route declares, with the status the registry gives it. Tests and `run --check-wire` put it between a client
 * and the platform, so a view that leaves the contract fails CI instead of a user's agent.
 */
export class WireContractError extends Error {
  override readonly name = 'WireContractError';
}

interface CheckedRoute {
  contract: RouteContract;
  /** The path template's segments; `{name}` matches any one segment. */
  segments: string[];
  validate?: ValidateFunction;
}

export class WireChecker {
  readonly #routes: CheckedRoute[];
  readonly #ajv = new Ajv({ strict: false, allErrors: false });

  constructor(contracts: readonly RouteContract[] = CONTRACTS) {
    addWireFormats(this.#ajv);
    this.#routes = bySpecificity(contracts.map(checkedRoute));
  }

  /** Why the answer leaves the contract, or undefined when it keeps to it. */
  problem(method: string, rawPath: string, status: number, body: unknown): string | undefined {
    const segments = pathSegments(wirePath(rawPath).path);
    const sameMethod = this.#routes.find(
      (route) => route.contract.method === method.toUpperCase() && matches(route.segments, segments),
    );
    if (!sameMethod) {
      const anyMethod = this.#routes.some((route) => matches(route.segments, segments));
      return errorProblem(
        unroutedCodes(`/${segments.join('/')}`, anyMethod ? 'method_not_allowed' : 'route_not_found'),
        status,
        body,
      );
    }
    const { contract } = sameMethod;
    if (status >= 200 && status < 300) return this.#successProblem(sameMethod, status, body);
    return errorProblem(codesOf(contract), status, body);
  }

  /** Throws a WireContractError naming the route and the first fault. */
  check(method: string, path: string, status: number, body: unknown): void {
    const problem = this.problem(method, path, status, body);
    if (problem) throw new WireContractError(`${method.toUpperCase()} ${path} -> ${status}: ${problem}`);
  }

  #successProblem(route: CheckedRoute, status: number, body: unknown): string | undefined {
    const expected = route.contract.status ?? 200;
    if (status !== expected) return `success status ${status}, the contract says ${expected}`;
    route.validate ??= this.#ajv.compile(route.contract.response);
    if (route.validate(body)) return undefined;
    const first = route.validate.errors?.[0];
    const where = first?.instancePath || '(body)';
    const extra =
      first?.keyword === 'additionalProperties' ? ` (${String(first.params['additionalProperty'])})` : '';
    return `response ${where} ${first?.message ?? 'is invalid'}${extra}`;
  }
}

function errorProblem(allowed: readonly ErrorCode[], status: number, body: unknown): string | undefined {
  const payload = body as { error?: unknown; message?: unknown } | null;
  if (
    typeof payload !== 'object' ||
    payload === null ||
    typeof payload.error !== 'string' ||
    typeof payload.message !== 'string'
  ) {
    return `status ${status} without an {error, message} body`;
  }
  const code = payload.error as ErrorCode;
  if (!allowed.includes(code)) return `error ${code} is not one the route declares (${allowed.join(', ')})`;
  if (HTTP_STATUS_BY_CODE[code] !== status)
    return `error ${code} with status ${status}, the registry says ${HTTP_STATUS_BY_CODE[code]}`;
  return undefined;
}

function checkedRoute(contract: RouteContract): CheckedRoute {
  return { contract, segments: contract.path.split('/').filter(Boolean) };
}

function matches(template: readonly string[], actual: readonly string[]): boolean {
  return matchSegments(template, actual) !== undefined;
}

/**
 * A transport that checks every answer of the one it wraps and passes the answer on unchanged. A fault
 * throws at once (`throw`, for tests that call routes directly) or is kept in `faults` (`collect`, for a
 * whole run: an agent's own error handling must not swallow it; the world reports them at the end).
 */
export class WireCheckingTransport implements Transport {
  readonly faults: string[] = [];
  readonly #inner: Transport;
  readonly #checker: WireChecker;
  readonly #mode: 'throw' | 'collect';

  constructor(inner: Transport, mode: 'throw' | 'collect' = 'throw', checker: WireChecker = sharedChecker()) {
    this.#inner = inner;
    this.#mode = mode;
    this.#checker = checker;
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const response = await this.#inner.send(request);
    const problem = this.#checker.problem(request.method, request.path, response.status, response.body);
    if (problem) {
      const line = `${request.method} ${request.path} -> ${response.status}: ${problem}`;
      if (this.#mode === 'throw') throw new WireContractError(line);
      this.faults.push(line);
    }
    return response;
  }
}

let shared: WireChecker | undefined;

/** One checker per process: its compiled validators are reused by every transport. */
function sharedChecker(): WireChecker {
  return (shared ??= new WireChecker());
}
