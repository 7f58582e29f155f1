/**
 * The social API debugger (public-site.md §2 "Debug page", back-office.md §7): three checks in order — the
 * token, the page, one post — stopping at the first that fails, with the spec's messages. Admins only
 * (the route checks); the result carries the token's length, never the token, and when Meta refused, what
 * it said (code, subcode, type, message, trace id; the token cut out) and what kind of refusal that is, so the
 * page can say what to change: the version, the token, a permission.
 */
import { getConfig, type Config } from "#server/config.server.ts";
import { createGraphClient, GraphError, refusalKind, type GraphClient, type MetaError, type RefusalKind } from "./graph.server.ts";

export type DebugCheck = "token" | "page" | "posts";

/** The spec's "Facebook debug result": success, error, details, message, postsCount — plus which checks ran. */
export type DebugResult = {
  success: boolean;
  error?: string;
  details?: string;
  message?: string;
  postsCount?: number;
  checks: { check: DebugCheck; ok: boolean }[];
  /** Meta's own answer when it refused the failing check, with the version that was asked. */
  refusal?: { status: number | null; version: string; kind: RefusalKind; meta: MetaError };
};

export type DebugReport = {
  configured: boolean;
  pageId: string | null;
  graphUrl: string;
  graphVersion: string;
  tokenLength: number;
  result: DebugResult | null;
};

/** back-office.md §8, "Facebook debug": [answered with an error, could not ask] per check. */
const MESSAGES: Record<DebugCheck, [string, string]> = {
  token: ["Invalid access token", "Token validation failed"],
  page: ["Cannot access page", "Page access failed"],
  posts: ["Cannot fetch posts", "Posts fetch failed"],
};

const nameOf = (body: unknown) => {
  const b = body as { name?: unknown; id?: unknown } | null;
  return [typeof b?.name === "string" ? b.name : null, typeof b?.id === "string" ? `(${b.id})` : null].filter(Boolean).join(" ");
};

export async function runDebugChecks(client: GraphClient): Promise<DebugResult> {
  const checks: DebugResult["checks"] = [];
  const steps: [DebugCheck, () => Promise<unknown>][] = [
    ["token", client.me],
    ["page", client.page],
    ["posts", client.onePost],
  ];
  const seen: Partial<Record<DebugCheck, unknown>> = {};
  for (const [check, run] of steps) {
    try {
      seen[check] = await run();
      checks.push({ check, ok: true });
    } catch (error) {
      checks.push({ check, ok: false });
      const answered = error instanceof GraphError && error.status !== null && error.code !== "invalid-response";
      const failure = error instanceof GraphError ? error : null;
      const meta = failure?.meta ?? null;
      return {
        success: false,
        error: MESSAGES[check][answered ? 0 : 1],
        details: failure
          ? [failure.status ? `HTTP ${failure.status}` : null, failure.message, meta?.message ?? failure.detail].filter(Boolean).join(" — ")
          : "unexpected error",
        checks,
        ...(meta && { refusal: { status: failure?.status ?? null, version: client.version, kind: refusalKind(meta), meta } }),
      };
    }
  }
  const data = (seen.posts as { data?: unknown } | undefined)?.data;
  const postsCount = Array.isArray(data) ? data.length : 0;
  return {
    success: true,
    message: "All tests passed!",
    postsCount,
    details: [nameOf(seen.token) && `token: ${nameOf(seen.token)}`, nameOf(seen.page) && `page: ${nameOf(seen.page)}`].filter(Boolean).join(" · "),
    checks,
  };
}

/** The debug page's report for this process's configuration. */
export async function socialDebugReport(config: Config = getConfig()): Promise<DebugReport> {
  const token = config.FACEBOOK_PAGE_TOKEN ?? "";
  const graphVersion = config.FACEBOOK_GRAPH_VERSION;
  const base = { pageId: config.FACEBOOK_PAGE_ID ?? null, graphUrl: config.FACEBOOK_GRAPH_URL, graphVersion, tokenLength: token.length };
  if (config.drivers.social !== "graph-api" || !config.FACEBOOK_PAGE_ID) return { ...base, configured: false, result: null };
  const client = createGraphClient({
    baseUrl: config.FACEBOOK_GRAPH_URL,
    version: graphVersion,
    pageId: config.FACEBOOK_PAGE_ID,
    token,
    timeoutMs: config.FACEBOOK_TIMEOUT_MS,
  });
  return { ...base, configured: true, result: await runDebugChecks(client) };
}
