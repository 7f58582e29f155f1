import { useTranslation } from "react-i18next";
import type { Route } from "./+types/dashboard";
import { AdminError } from "~/components/admin/guard.tsx";
import { authMeta } from "~/lib/auth-meta.ts";
import { getDb } from "../../../server/db/client.ts";
import { dashboardCounts, type DashboardCounts } from "../../../server/content/dashboard.ts";
import { requireStaff } from "../../../server/auth/session.server.ts";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireStaff(request);
  return { name: user.name, counts: await dashboardCounts(await getDb()) };
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "admin.dashboard");

/** back-office.md §2, "Dashboard": a welcome line and eight counts. */
const CARDS: { key: keyof DashboardCounts; label: string; tone: string }[] = [
  { key: "articles", label: "dashboard.articles", tone: "border-s-desert-500" },
  { key: "news", label: "dashboard.news", tone: "border-s-desert-500" },
  { key: "podcasts", label: "dashboard.podcasts", tone: "border-s-palm-600" },
  { key: "programs", label: "dashboard.programs", tone: "border-s-palm-600" },
  { key: "coverage", label: "dashboard.coverage", tone: "border-s-sand-300" },
  { key: "media", label: "dashboard.media", tone: "border-s-sand-300" },
  { key: "unreadMessages", label: "dashboard.unreadMessages", tone: "border-s-red-600" },
  { key: "totalMessages", label: "dashboard.totalMessages", tone: "border-s-ink-soft" },
];

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language === "ar" ? "ar-SA-u-nu-latn" : i18n.language);
  return (
    <section data-testid="admin-dashboard">
      <h1 className="text-2xl font-bold">{t("admin.dashboard")}</h1>
      <p className="mt-1 text-ink-soft" data-testid="dashboard-welcome">
        {t("dashboard.welcome", { name: loaderData.name })}
      </p>
      <ul className="mt-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {CARDS.map((card) => (
          <li key={card.key} className={`rounded-lg border border-s-4 border-sand-200 bg-white p-4 shadow-sm ${card.tone}`} data-testid={`count-${card.key}`}>
            <p className="text-sm text-ink-soft">{t(card.label)}</p>
            <p className="mt-2 text-3xl font-bold" data-value={loaderData.counts[card.key]}>
              {number.format(loaderData.counts[card.key])}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
