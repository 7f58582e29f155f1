/**
 * The public JSON endpoints' common ground (public-site.md §7, "REST endpoints"): strict query-string
 * checks that answer 400 with `{error: {code, message}}`, a short public cache on success, and a logged 500
 * that reveals nothing on failure. Codes are stable; messages are for the people reading them.
 */
import { z } from "zod/mini";
import { logger } from "#server/ops/logger.server.ts";

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

/** What an endpoint's query schema is: z.strictObject of pieces from domain/query.ts. */
type QuerySchema = z.ZodMiniObject<z.core.$ZodLooseShape, z.core.$strict>;

/**
 * The query string of a request, checked by the endpoint's one schema: unknown parameters, repeated ones,
 * oversized values and bad values each answer 400 with a stable code (UNKNOWN_PARAMETER,
 * DUPLICATE_PARAMETER, INVALID_PARAMETER, INVALID_<NAME>) and a message that never echoes the value.
 */
export function parseQuery<S extends QuerySchema>(request: Request, schema: S, { maxLength = MAX_VALUE_LENGTH } = {}): z.output<S> {
  const raw: Record<string, string> = {};
  for (const [name, value] of new URL(request.url).searchParams) {
    if (Object.hasOwn(raw, name)) throw new ApiError(400, "DUPLICATE_PARAMETER", `The ${safeName(name)} parameter may be given only once.`);
    if (value.length > maxLength) throw new ApiError(400, "INVALID_PARAMETER", `The ${safeName(name)} parameter is too long.`);
    raw[name] = value;
  }
  const parsed = z.safeParse(schema, raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue.code === "unrecognized_keys") {
    const allowed = Object.keys(schema.shape);
    const known = allowed.length ? `Allowed: ${allowed.join(", ")}.` : "This endpoint takes none.";
    throw new ApiError(400, "UNKNOWN_PARAMETER", `Unknown query parameter "${safeName(issue.keys[0])}". ${known}`);
  }
  const name = String(issue.path[0]);
  throw new ApiError(400, `INVALID_${name.toUpperCase()}`, `The ${name} parameter ${issue.message}.`);
}

/** A parameter name as it may appear in a message: short, and nothing but word characters. */
const safeName = (name: string) => name.slice(0, 40).replace(/[^\w-]/g, "?");
