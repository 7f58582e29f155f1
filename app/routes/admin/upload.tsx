import { data, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/upload";
import { AdminError } from "#app/components/admin/guard.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { inOrderOf } from "#domain/content-types/index.ts";
import { requirePermission } from "#server/auth/session.server.ts";

/**
 * The upload hub (back-office.md §2, "Upload hub"): six cards, each opening the same editor as its list's
 * "add new" button, and the tips panel.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "content.write");
  return data(null, { headers: { "Cache-Control": "private, no-store" } });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "admin.upload");

/** One card per content type, in the spec's order (each definition's `upload`). */
const CARDS = inOrderOf("upload");

const TIPS = ["titles", "descriptions", "category", "facts", "images", "video", "audio", "fileNames"] as const;

export default function UploadHub() {
  const { t } = useTranslation();
  return (
    <section className="space-y-6" data-testid="upload-hub">
      <div>
        <h1 className="text-2xl font-bold">{t("admin.upload")}</h1>
        <p className="mt-1 text-ink-soft">{t("newsroom.ui.upload.intro")}</p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {CARDS.map(({ type, segment, upload: { accent } }) => (
          <li key={type}>
            <Link
              to={`/admin/${segment}/new`}
              className={`flex h-full flex-col rounded-lg border border-t-4 border-sand-200 bg-white p-5 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-visible:ring-2 focus-visible:ring-desert-500 ${accent}`}
              data-testid={`upload-card-${type}`}
            >
              <span className="text-lg font-bold">{t(`newsroom.ui.upload.cards.${type}.title`)}</span>
              <span className="mt-1 flex-1 text-sm text-ink-soft">{t(`newsroom.ui.upload.cards.${type}.description`)}</span>
              <span className="mt-4 text-sm font-bold text-desert-700">{t("newsroom.ui.upload.open")}</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link
        to="/admin/library"
        className="flex flex-col gap-1 rounded-lg border border-sand-200 bg-white p-5 shadow-sm transition hover:shadow-md focus-visible:ring-2 focus-visible:ring-desert-500 sm:flex-row sm:items-center sm:justify-between"
        data-testid="upload-library-link"
      >
        <span>
          <span className="block text-lg font-bold">{t("library.hubTitle")}</span>
          <span className="block text-sm text-ink-soft">{t("library.hubText")}</span>
        </span>
        <span className="text-sm font-bold text-desert-700">{t("newsroom.ui.upload.open")}</span>
      </Link>
      <aside aria-labelledby="upload-tips" className="rounded-lg border border-palm-600/30 bg-emerald-50/60 p-5" data-testid="upload-tips">
        <h2 id="upload-tips" className="text-lg font-bold">
          {t("newsroom.ui.upload.tipsTitle")}
        </h2>
        <ul className="mt-3 grid list-disc gap-x-8 gap-y-1.5 ps-5 text-sm sm:grid-cols-2">
          {TIPS.map((tip) => (
            <li key={tip}>{t(`newsroom.ui.upload.tips.${tip}`)}</li>
          ))}
        </ul>
      </aside>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
