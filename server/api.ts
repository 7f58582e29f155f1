/**
 * The public JSON endpoints' common ground (public-site.md §7, "REST endpoints"): strict query-string
 * checks that answer 400 with `{error: {code, message}}`, a short public cache on success, and a logged 500
 * that reveals nothing on failure. Codes are stable; messages are for the people reading them.
 */
import { logger } from "./logger.ts";

export const PUBLIC_API_CACHE = "public, max-age=60";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function apiJson(body: unknown, { status = 200, cache = PUBLIC_API_CACHE }: { status?: number; cache?: string } = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": cache } });
}

export function apiErrorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status, headers: { "Cache-Control": "no-store" } });
}

/** Runs an endpoint: ApiError becomes its JSON answer, anything else a logged 500. */
export async function handleApi(what: string, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError) return apiErrorResponse(error.status, error.code, error.message);
    logger.error({ err: error, what }, "api request failed");
    return apiErrorResponse(500, "INTERNAL_ERROR", "The request could not be completed. Please try again later.");
  }
}

const MAX_VALUE_LENGTH = 100;

/**
 * The query string of a request, refusing parameters the endpoint does not know, repeated parameters and
 * oversized values. Returns a plain record of the known ones that are present.
 */
export function readQuery<K extends string>(request: Request, allowed: readonly K[]): Partial<Record<K, string>> {
  const params = new URL(request.url).searchParams;
  const out: Partial<Record<K, string>> = {};
  for (const [name, value] of params) {
    if (!(allowed as readonly string[]).includes(name)) {
      const known = allowed.length ? `Allowed: ${allowed.join(", ")}.` : "This endpoint takes none.";
      throw new ApiError(400, "UNKNOWN_PARAMETER", `Unknown query parameter "${name.slice(0, 40).replace(/[^\w-]/g, "?")}". ${known}`);
    }
    if (name in out) throw new ApiError(400, "DUPLICATE_PARAMETER", `The ${name} parameter may be given only once.`);
    if (value.length > MAX_VALUE_LENGTH) throw new ApiError(400, "INVALID_PARAMETER", `The ${name} parameter is too long.`);
    out[name as K] = value;
  }
  return out;
}

/** One of a fixed list of values, or undefined when absent. The bad value is never echoed back. */
export function oneOf<T extends string>(name: string, value: string | undefined, values: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw new ApiError(400, `INVALID_${name.toUpperCase()}`, `The ${name} parameter must be one of: ${values.join(", ")}.`);
  }
  return value as T;
}

/** A whole number in [min, max], `fallback` when absent. */
export function integerParam(name: string, value: string | undefined, { min, max, fallback }: { min: number; max: number; fallback: number }): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ApiError(400, `INVALID_${name.toUpperCase()}`, `The ${name} parameter must be a whole number from ${min} to ${max}.`);
  }
  return Number(value);
}
