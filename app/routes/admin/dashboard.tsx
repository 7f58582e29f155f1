import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/dashboard";
import { AdminError } from "#app/components/admin/guard.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { getDb } from "#server/db/client.server.ts";
import { dashboardCounts, type DashboardCounts } from "#server/content/dashboard.server.ts";
import { adminPageAccess, hasAccess } from "#server/auth/permissions.server.ts";
import { requireStaff } from "#server/auth/session.server.ts";
import { formatNumber } from "#domain/plural.ts";
import type { Language } from "#domain/language.ts";

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "admin.dashboard");

/** back-office.md §2, "Dashboard": a welcome line and eight counts. */
const CARDS: { key: keyof DashboardCounts; label: string; tone: string; href: string }[] = [
  { key: "articles", label: "dashboard.articles", tone: "border-s-desert-500", href: "/admin/articles" },
  { key: "news", label: "dashboard.news", tone: "border-s-desert-500", href: "/admin/news" },
  { key: "podcasts", label: "dashboard.podcasts", tone: "border-s-palm-600", href: "/admin/podcasts" },
  { key: "programs", label: "dashboard.programs", tone: "border-s-palm-600", href: "/admin/programs" },
  { key: "coverage", label: "dashboard.coverage", tone: "border-s-sand-300", href: "/admin/coverage" },
  { key: "media", label: "dashboard.media", tone: "border-s-sand-300", href: "/admin/media" },
  { key: "unreadMessages", label: "dashboard.unreadMessages", tone: "border-s-red-600", href: "/admin/contacts?status=new" },
  { key: "totalMessages", label: "dashboard.totalMessages", tone: "border-s-ink-soft", href: "/admin/contacts" },
];
/**
 * A member of staff sees the counts of the screens they may open, each a link to its screen; the counts
 * they may not open are not even sent.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireStaff(request);
  const counts = await dashboardCounts(await getDb());
  const cards = CARDS.filter((card) => {
    const access = adminPageAccess(card.href.split("?")[0]);
    return access !== undefined && hasAccess(user.profile, access);
  }).map((card) => ({ ...card, value: counts[card.key] }));
  return { name: user.name, cards };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const number = { format: (n: number) => formatNumber(i18n.language as Language, n) };
  return (
    <section data-testid="admin-dashboard">
      <h1 className="text-2xl font-bold">{t("admin.dashboard")}</h1>
      <p className="mt-1 text-ink-soft" data-testid="dashboard-welcome">
        {t("dashboard.welcome", { name: loaderData.name })}
      </p>
      <ul className="mt-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {loaderData.cards.map((card) => (
          <li key={card.key}>
            <Link
              to={card.href}
              className={`block h-full rounded-lg border border-s-4 border-sand-200 bg-white p-4 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-visible:ring-2 focus-visible:ring-desert-500 ${card.tone}`}
              data-testid={`count-${card.key}`}
            >
              <span className="block text-sm text-ink-soft">{t(card.label)}</span>
              <span className="mt-2 block text-3xl font-bold" data-value={card.value}>
                {number.format(card.value)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
