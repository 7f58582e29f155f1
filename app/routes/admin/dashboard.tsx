import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/dashboard";
import { AdminError } from "#app/components/admin/guard.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { getDb } from "#server/db/client.server.ts";
import { dashboardCounts, type DashboardCounts } from "#server/content/dashboard.server.ts";
import { inOrderOf } from "#domain/content-types/index.ts";
import { adminPageAccess, can, hasAccess } from "#server/auth/permissions.server.ts";
import { markNoticesRead, noticesOf, reviewQueue } from "#server/content/workflow.server.ts";
import { Notices, ReviewQueue } from "#app/components/admin/workflow.tsx";
import { requireStaff } from "#server/auth/session.server.ts";
import { formatNumber } from "#domain/plural.ts";
import type { Language } from "#domain/language.ts";

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "admin.dashboard");

type Card = { key: string; label: string; tone: string; href: string; value: (counts: DashboardCounts) => number };

/**
 * back-office.md §2, "Dashboard": a welcome line and eight counts — each content type's, in the spec's order
 * (each definition's `dashboard`), and the messages'. A card's key is its screen's segment.
 */
const CARDS: readonly Card[] = [
  ...inOrderOf("dashboard").map(({ type, segment, dashboard }) => ({
    key: segment,
    label: `dashboard.${segment}`,
    tone: dashboard.tone,
    href: `/admin/${segment}`,
    value: (counts: DashboardCounts) => counts.items[type],
  })),
  { key: "unreadMessages", label: "dashboard.unreadMessages", tone: "border-s-red-600", href: "/admin/contacts?status=new", value: (c) => c.unreadMessages },
  { key: "totalMessages", label: "dashboard.totalMessages", tone: "border-s-ink-soft", href: "/admin/contacts", value: (c) => c.totalMessages },
];
/**
 * A member of staff sees the counts of the screens they may open, each a link to its screen; the counts
 * they may not open are not even sent.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireStaff(request);
  const db = await getDb();
  const counts = await dashboardCounts(db);
  const cards = CARDS.filter((card) => {
    const access = adminPageAccess(card.href.split("?")[0]);
    return access !== undefined && hasAccess(user.profile, access);
  }).map(({ key, label, tone, href, value }) => ({ key, label, tone, href, value: value(counts) }));
  // Workflow (decision 0138): what waits for an editor, oldest first (for those who may publish), and this
  // account's notices, marked read once shown here.
  const [queue, notices] = await Promise.all([can(user.profile, "content.publish") ? reviewQueue(db) : null, noticesOf(db, user.id)]);
  if (notices.unread)
    await markNoticesRead(
      db,
      user.id,
      notices.notices.filter((n) => !n.read).map((n) => n.id),
    );
  return { name: user.name, cards, queue, notices };
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
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        {loaderData.queue && <ReviewQueue items={loaderData.queue} />}
        <Notices notices={loaderData.notices.notices} unread={loaderData.notices.unread} />
      </div>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
