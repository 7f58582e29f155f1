import type { Route } from "./+types/admin-audit";
import { z } from "zod/mini";
import { getDb } from "#server/db/client.server.ts";
import { AUDIT_CSV_MAX, AUDIT_PAGE_MAX, AUDIT_PAGE_SIZE, auditCsv, auditFilterOf, listAudit } from "#server/content/audit.server.ts";
import { requireAdmin } from "#server/auth/session.server.ts";
import { handleApi, parseQuery, privateJson } from "#server/http/api.server.ts";
import { BadRequestError, MethodNotAllowedError } from "#server/http/errors.server.ts";

/**
 * GET /api/admin/audit?type=&id=&actor=&action=&from=&to= — the audit log (issue 40, decision 0140; docs/api.md,
 * "Audit log"), administrators only: `{ entries: [{ actor, actor_email, action, type, id, ids, at, request_id,
 * details }], more, limit, offset }`, newest first, `limit` (1–500, default 50) from `offset`. `format=csv` (or
 * /api/admin/audit.csv) answers the matching entries (the newest 50,000) as a CSV file.
 */
const AuditQuery = z.strictObject({
  type: z.optional(z.string()),
  id: z.optional(z.string()),
  actor: z.optional(z.string()),
  action: z.optional(z.string()),
  from: z.optional(z.string()),
  to: z.optional(z.string()),
  limit: z.optional(z.string().check(z.regex(/^\d{1,3}$/, "must be a whole number from 1 to 500"))),
  offset: z.optional(z.string().check(z.regex(/^\d{1,7}$/, "must be a whole number"))),
  format: z.optional(z.enum(["json", "csv"], "must be json or csv")),
});

export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/audit", async () => {
    await requireAdmin(request, { mode: "api" });
    const query = parseQuery(request, AuditQuery, { maxLength: 200 });
    const { filter, invalid } = auditFilterOf(query);
    if (invalid.length) {
      const fields = Object.fromEntries(invalid.map((name) => [name, `The ${name} parameter is not valid.`]));
      throw new BadRequestError("INVALID_QUERY", Object.values(fields)[0], { fields });
    }
    const db = await getDb();
    const csv = query.format === "csv" || new URL(request.url).pathname.endsWith(".csv");
    if (csv) {
      const { entries } = await listAudit(db, filter, { limit: AUDIT_CSV_MAX });
      const day = new Date().toISOString().slice(0, 10);
      return new Response(auditCsv(entries), {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="audit-${day}.csv"`,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    }
    const limit = Math.min(Math.max(Number(query.limit ?? AUDIT_PAGE_SIZE), 1), AUDIT_PAGE_MAX);
    const offset = Number(query.offset ?? 0);
    const { entries, more } = await listAudit(db, filter, { limit, offset });
    return privateJson({ entries, more, limit, offset });
  });
}

export async function action({ request }: Route.ActionArgs) {
  return handleApi("api/admin/audit", async () => {
    await requireAdmin(request, { mode: "api" });
    throw new MethodNotAllowedError(["GET"]);
  });
}
