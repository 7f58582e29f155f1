import { data, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/content-preview";
import { AdminError } from "#app/components/admin/guard.tsx";
import { ContentDetail } from "#app/components/content/content-detail.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { contentTypeOfUrl } from "#domain/content-form.ts";
import { contentTypeBySegment } from "#domain/content-types/index.ts";
import { getDb } from "#server/db/client.server.ts";
import { loadPreviewPage } from "#server/content/detail-page.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { assertMayEdit } from "#server/content/ownership.server.ts";
import { parseId } from "#domain/ids.ts";

/**
 * A draft (or scheduled, or published) item as readers will see it, from the public detail page's own
 * component: /admin/{segment}/:id/preview. Never cached, never counted as a view.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const def = contentTypeOfUrl(request.url);
  if (!def) throw data(null, { status: 404, statusText: "Not Found" });
  const user = await requirePermission(request, def.permissions.write);
  const id = parseId(params.id) ?? 0;
  // Ownership (issue 40): a draft's preview is part of editing it.
  await assertMayEdit(await getDb(), user, def.type, id, "page");
  const page = await loadPreviewPage(await getDb(), def.type, id);
  return data({ segment: def.segment, page }, { headers: { "Cache-Control": "private, no-store" } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "newsroom.ui.preview");

export default function PreviewPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const def = contentTypeBySegment(loaderData.segment)!;
  const { page } = loaderData;
  return (
    <div data-testid="content-preview" className="-mx-4 -my-4 sm:-mx-6 sm:-my-6 lg:-mx-8 lg:-my-8">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-sand-200 bg-white px-4 py-2 text-sm">
        <span className="font-bold">{t("newsroom.ui.previewOf", { title: page.item.title })}</span>
        <Link
          to={`/admin/${def.segment}/${page.item.id}`}
          className="rounded-md border border-sand-300 px-3 py-1 font-bold hover:bg-sand-100"
          data-testid="back-to-editor"
        >
          {t("newsroom.ui.backToEditor")}
        </Link>
      </div>
      {/* A pasted address is one unbreakable word: wrapped anywhere rather than widening a phone's screen. */}
      <div className="bg-sand-50 [overflow-wrap:anywhere]">
        <ContentDetail page={page} />
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
