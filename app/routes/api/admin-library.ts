import type { Route } from "./+types/admin-library";
import { z } from "zod/mini";
import { LIBRARY_FILTERS, LIBRARY_MAX_PAGE_SIZE, LIBRARY_PAGE_SIZE, type LibraryFilter } from "#domain/library.ts";
import { oneOf, wholeNumberOr } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { handleApi, methodNotAllowed, parseQuery, privateJson } from "#server/http/api.server.ts";
import { listLibrary, withVideoThumbnails } from "#server/media/library.server.ts";

const Query = z.strictObject({
  q: z.optional(z.string()),
  kind: oneOf(["all", ...LIBRARY_FILTERS]),
  page: wholeNumberOr(1, 1, 999_999),
  pageSize: wholeNumberOr(LIBRARY_PAGE_SIZE, 1, LIBRARY_MAX_PAGE_SIZE),
});

/**
 * GET /api/admin/library?q=&kind=&page=&pageSize= — one page of the media library, newest first:
 * `{ items, total, page, pageSize }` (items: domain/library.ts LibraryFile). `kind` is all (the default), image,
 * audio, document or video (the video library's videos); `q` searches names, alt texts, captions and credits in
 * Arabic and French, Arabic-aware. Files are the newsroom's: the permission to write content is needed.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/admin/library", async () => {
    await requirePermission(request, "content.write", { mode: "api" });
    const { q, kind, page, pageSize } = parseQuery(request, Query);
    const result = await listLibrary(await getDb(), {
      q: q?.trim() || undefined,
      kind: kind && kind !== "all" ? (kind as LibraryFilter) : null,
      page,
      pageSize,
    });
    return privateJson({ ...result, items: await withVideoThumbnails(result.items) });
  });
}

/** Any other method: 405, past the same guard (uploads go by tus to /api/admin/files/tus, folder "library"). */
export const action = methodNotAllowed(["GET"], (request) => requirePermission(request, "content.write", { mode: "api" }));
