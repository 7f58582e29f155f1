import { useEffect } from "react";
import { data, Form, Link, NavLink, Outlet, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/layout";
import type { RootLoaderData } from "#app/root.tsx";
import { AdminError, guardReasonOf, GuardScreen } from "#app/components/admin/guard.tsx";
import { Avatar } from "#app/components/admin/avatar.tsx";
import { SignOutButton } from "#app/components/admin/sign-out-button.tsx";
import { Logo } from "#app/components/layout/logo.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import type { Language } from "#domain/language.ts";
import { ADMIN_PAGES, hasAccess } from "#server/auth/permissions.server.ts";
import { requireStaff } from "#server/auth/session.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { unreadNotices } from "#server/content/workflow.server.ts";

/**
 * The back-office shell: the menu on the reading side (right in Arabic), who is signed in, sign-out, and the
 * guard's screens. The pages check access themselves; this loader decides only what the shell shows.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireStaff(request);
  const unread = await unreadNotices(await getDb(), user.id);
  const menu = ADMIN_PAGES.filter((p) => hasAccess(user.profile, p.access)).map((p) => ({
    to: p.path,
    label: p.label,
    slug: p.path === "/admin" ? "dashboard" : p.path.slice("/admin/".length).replaceAll("/", "-"),
    // The account's unread notices (a story submitted, sent back, published: decision 0138), beside the dashboard that lists them.
    unread: p.path === "/admin" ? unread : 0,
  }));
  return data(
    {
      user: { name: user.name, initials: user.initials, email: user.email, avatarUrl: user.avatarUrl, role: user.isAdmin ? "admin" : user.profile.role },
      menu,
      session: { id: user.session.id, expiresAt: user.session.expiresAt },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

export const meta: Route.MetaFunction = () => [{ name: "robots", content: "noindex, nofollow" }];

const EXPIRY_WARNING_MS = 5 * 60 * 1000;
const WARNED_KEY = "sahara.sessionExpiryWarned";

/** back-office.md §4: one destructive toast when under five minutes of the session remain. */
function useSessionExpiryWarning(expiresAt: string) {
  const toast = useToast();
  const { t } = useTranslation();
  useEffect(() => {
    const end = Date.parse(expiresAt);
    const warn = () => {
      try {
        if (window.sessionStorage.getItem(WARNED_KEY) === expiresAt) return;
        window.sessionStorage.setItem(WARNED_KEY, expiresAt);
      } catch {
        // No storage: warn anyway; at worst twice.
      }
      toast({ title: t("admin.sessionExpiringTitle"), description: t("admin.sessionExpiring"), variant: "destructive" });
    };
    const delay = end - EXPIRY_WARNING_MS - Date.now();
    if (delay <= 0) {
      if (end > Date.now()) warn();
      return;
    }
    // setTimeout holds at most ~24.8 days; a week-long session is warned on a later page load.
    if (delay > 2 ** 31 - 1) return;
    const timer = window.setTimeout(warn, delay);
    return () => window.clearTimeout(timer);
  }, [expiresAt, t, toast]);
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-[0.95rem] ${isActive ? "bg-desert-600 font-bold text-white" : "text-ink hover:bg-sand-100"}`;

function Menu({ menu, idPrefix }: { menu: { to: string; label: string; slug: string; unread: number }[]; idPrefix: string }) {
  const { t } = useTranslation();
  return (
    <ul className="space-y-1">
      {menu.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.to === "/admin"} prefetch="intent" className={linkClass} data-testid={`${idPrefix}-${item.slug}`}>
            {t(item.label)}
            {item.unread > 0 && (
              <span className="ms-2 rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold text-white" data-testid="menu-unread">
                {t("workflow.notices.unread", { n: item.unread })}
              </span>
            )}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/**
 * The back-office's language switch, the public header's mechanism (app/routes/language.ts): a plain form
 * posting the other language and this page's address, so it works without JavaScript and comes back to the
 * same screen. It is a navigation like a menu link: an editor with unsaved changes is asked first (leave-guard).
 */
function LanguageSwitch({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const root = useRouteLoaderData<RootLoaderData>("root");
  const lang: Language = root?.lang ?? "ar";
  const target: Language = lang === "fr" ? "ar" : "fr";
  const label = t(`language.${target}`);
  return (
    <Form method="post" action="/language" preventScrollReset>
      <input type="hidden" name="lang" value={target} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button
        type="submit"
        data-testid={testId}
        data-target={target}
        className="flex w-full items-center gap-2 rounded-md border border-sand-200 px-3 py-2 text-start text-sm hover:bg-sand-100"
      >
        {/* The accessible name is the visible text first ("FR Français"), as speech-input users say what they see, then what it does. */}
        <span className="inline-flex h-6 min-w-6 items-center justify-center rounded border border-sand-300 px-1 text-xs font-bold">
          {target === "ar" ? "ع" : target.toUpperCase()}
        </span>
        <span lang={target} dir={target === "ar" ? "rtl" : "ltr"}>
          {label}
        </span>
        <span className="sr-only"> – {t("language.switchTo")}</span>
      </button>
    </Form>
  );
}

function Brand() {
  const root = useRouteLoaderData<RootLoaderData>("root");
  const lang = root?.lang ?? "ar";
  const site = root?.site;
  return (
    <Logo
      src={site?.logoUrl ?? "/brand/logo.svg"}
      fallbackSrc={site?.logoFallbackUrl ?? "/brand/logo-alt.svg"}
      name={(lang === "ar" ? site?.siteName : site?.siteNameFr) ?? "صحراء ميديا"}
    />
  );
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { user, menu, session } = loaderData;
  useSessionExpiryWarning(session.expiresAt);
  // Step (1) of the guard: while the next admin page is being checked and loaded.
  const checking = navigation.state === "loading" && navigation.location.pathname.startsWith("/admin");

  const account = (
    <div className="flex items-center gap-3">
      <Avatar name={user.name} initials={user.initials} url={user.avatarUrl} />
      <div className="min-w-0">
        <p className="truncate font-bold" data-testid="admin-user-name">
          {user.name}
        </p>
        <p className="truncate text-xs text-ink-soft" dir="ltr">
          {user.email}
        </p>
      </div>
    </div>
  );
  const footerLinks = (
    <div className="space-y-2 border-t border-sand-200 pt-4">
      <Link to="/" className="block rounded-md px-3 py-2 text-sm hover:bg-sand-100" data-testid="admin-back-to-site">
        {t("admin.backToSite")}
      </Link>
      <SignOutButton className="block w-full rounded-md px-3 py-2 text-start text-sm font-bold text-red-700 hover:bg-red-50" />
    </div>
  );

  return (
    <div className="min-h-screen bg-sand-50 lg:flex" data-testid="admin-shell">
      <aside className="hidden w-64 shrink-0 flex-col gap-6 border-e border-sand-200 bg-white p-4 lg:flex" aria-label={t("adminShell.menu")}>
        <Brand />
        {account}
        {/* Under who is signed in, in sight on any screen (the footer's links sit below the longest lists). */}
        <LanguageSwitch testId="admin-menu-language" />
        <nav aria-label={t("adminShell.menu")} data-testid="admin-menu">
          <Menu menu={menu} idPrefix="admin-menu-link" />
        </nav>
        <div className="mt-auto">{footerLinks}</div>
      </aside>

      <div className="relative flex items-center justify-between gap-3 border-b border-sand-200 bg-white px-4 py-3 lg:hidden">
        <Brand />
        {/* A <details> opens and closes without JavaScript; its panel drops below the whole bar. */}
        <details data-testid="admin-mobile-menu">
          <summary className="cursor-pointer list-none whitespace-nowrap rounded-md border border-sand-300 px-3 py-2 text-sm font-bold">
            {t("adminShell.menuButton")}
          </summary>
          <div className="absolute inset-x-0 top-full z-30 space-y-4 border-b border-sand-200 bg-white px-4 py-4 shadow-md">
            {account}
            <LanguageSwitch testId="admin-mobile-menu-language" />
            <nav aria-label={t("adminShell.menu")}>
              <Menu menu={menu} idPrefix="admin-mobile-menu-link" />
            </nav>
            {footerLinks}
          </div>
        </details>
      </div>

      <main id="main" className="min-w-0 flex-1 p-4 sm:p-6 lg:p-8">
        {checking && (
          <p role="status" className="mb-4 rounded-md bg-white px-4 py-2 text-sm text-ink-soft shadow-sm" data-testid="admin-checking">
            {t("admin.checking")}
          </p>
        )}
        <Outlet />
      </main>
    </div>
  );
}

/** Refusals of the shell's own check (reader, unconfirmed e-mail) get the whole screen, with a way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const reason = guardReasonOf(error);
  return (
    <div className="min-h-screen bg-sand-50">
      <header className="border-b border-sand-200 bg-white px-4 py-3">
        <Brand />
      </header>
      <main id="main">{reason ? <GuardScreen reason={reason} /> : <AdminError error={error} />}</main>
    </div>
  );
}
