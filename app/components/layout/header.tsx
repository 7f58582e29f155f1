import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { NAV_FIT, NAV_ITEMS } from "#domain/navigation.ts";
import type { Language } from "#domain/language.ts";
import { useStaticPage } from "#app/lib/static-page.ts";
import { CloseIcon, MenuIcon, SearchIcon } from "#app/components/ui/icons.tsx";
import { inApp } from "#app/lib/enhance-in-app.ts";
// no-inline: under 4 KB, Vite would inline it in every page as a data: URL (which the CSP refuses to run).
import suggestScript from "#app/enhance/suggest.js?url&no-inline";
import { Logo } from "./logo.tsx";

const noSubscription = () => () => {};

type HeaderProps = {
  lang: Language;
  siteName: string;
  logoUrl: string;
  logoFallbackUrl: string;
  signedIn: boolean;
};

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-3 py-2 text-[0.95rem] transition-colors ${isActive ? "bg-desert-600 text-white font-bold" : "text-ink hover:bg-sand-100"}`;

/** The language toggle: FR while Arabic (or English) is shown, ع while French is shown. A plain form, so it works without JavaScript. */
export function LanguageToggle({ lang }: { lang: Language }) {
  const { t } = useTranslation();
  const location = useLocation();
  const target: Language = lang === "fr" ? "ar" : "fr";
  const label = lang === "fr" ? "ع" : "FR";
  return (
    <Form method="post" action="/language" preventScrollReset>
      <input type="hidden" name="lang" value={target} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button
        type="submit"
        data-testid="language-toggle"
        // The accessible name starts with the visible label, as speech-input users say what they see.
        aria-label={`${label} – ${t("language.switchTo")}`}
        lang={target}
        className="inline-flex h-10 min-w-10 items-center justify-center rounded-md border border-sand-300 px-2 font-bold text-ink hover:bg-sand-100"
      >
        {label}
      </button>
    </Form>
  );
}

export function Header({ lang, siteName, logoUrl, logoFallbackUrl, signedIn }: HeaderProps) {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const searchInput = useRef<HTMLInputElement>(null);
  const location = useLocation();
  const staticPage = useStaticPage();
  const fit = NAV_FIT[lang];
  // Until hydration the search link and the menu's disclosure are plain HTML and say nothing they cannot keep.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  // A navigation of any kind (link, back button) closes the menu and the search field.
  const [openedAt, setOpenedAt] = useState(location.pathname);
  if (openedAt !== location.pathname) {
    setOpenedAt(location.pathname);
    setMenuOpen(false);
    setSearchOpen(false);
  }
  useEffect(() => {
    if (searchOpen) searchInput.current?.focus();
  }, [searchOpen]);
  // Escape closes the open menu and puts focus back on its button, where the reader opened it from.
  const menuButton = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  const accountLink = signedIn ? (
    <Link to="/admin" data-testid="admin-link" className="rounded-md bg-palm-700 px-3 py-2 text-sm font-bold text-white hover:bg-palm-800">
      {t("nav.admin")}
    </Link>
  ) : (
    <Link to="/auth" data-testid="sign-in-link" className="rounded-md bg-palm-700 px-3 py-2 text-sm font-bold text-white hover:bg-palm-800">
      {t("nav.signIn")}
    </Link>
  );

  // Entries past what fits at `lg` go to the "more" menu; those that fit from `xl` come back to the bar there.
  const inBar = (i: number) => (i < fit.lg ? "" : i < fit.xl ? "hidden xl:block" : "hidden");
  const inMore = (i: number) => (i < fit.lg ? null : i < fit.xl ? "xl:hidden" : "");
  const moreItems = NAV_ITEMS.map((item, i) => ({ item, className: inMore(i) })).filter((m) => m.className !== null);

  return (
    <header className="sticky top-0 z-40 border-b border-sand-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85" data-testid="site-header">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t("nav.skipToContent")}
      </a>
      {/* Narrower gaps on the smallest phones: the French logo and the three buttons fill 320px. */}
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-1 px-4 sm:gap-2">
        <Logo src={logoUrl} fallbackSrc={logoFallbackUrl} name={siteName} />
        <div className="ms-auto flex items-center gap-1 sm:gap-2">
          {/* A link to the search page, so it works without JavaScript; with it, it opens the field here. */}
          <a
            href="/search"
            role={hydrated ? "button" : undefined}
            data-testid="search-button"
            aria-label={t("nav.search")}
            aria-expanded={hydrated ? searchOpen : undefined}
            aria-controls={hydrated ? "site-search" : undefined}
            onClick={(e) => {
              e.preventDefault();
              setSearchOpen((v) => !v);
            }}
            className="inline-flex h-10 w-10 items-center justify-center rounded-md text-ink hover:bg-sand-100"
          >
            <SearchIcon />
          </a>
          <LanguageToggle lang={lang} />
          <div className="hidden sm:block">{accountLink}</div>
          {/*
            The phone menu is a disclosure (<details>), so it opens without JavaScript; with it, its state is
            React's, for Escape and for closing on navigation. The list is placed under the header's bar.
          */}
          <details
            className="group lg:hidden"
            open={menuOpen}
            onToggle={(e) => {
              const open = e.currentTarget.open;
              if (open !== menuOpen) setMenuOpen(open);
            }}
          >
            <summary
              ref={menuButton}
              data-testid="menu-button"
              data-label-open={t("nav.openMenu")}
              data-label-close={t("nav.closeMenu")}
              aria-label={menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
              aria-expanded={hydrated ? menuOpen : undefined}
              aria-controls="mobile-menu"
              className="inline-flex h-10 w-10 cursor-pointer list-none items-center justify-center rounded-md text-ink hover:bg-sand-100 [&::-webkit-details-marker]:hidden"
            >
              <span className="group-open:hidden">
                <MenuIcon />
              </span>
              <span className="hidden group-open:inline">
                <CloseIcon />
              </span>
            </summary>
            <nav
              id="mobile-menu"
              aria-label={t("nav.mainNavigation")}
              // Not laid out while closed: Chrome keeps a closed <details>' content laid out (hidden), where
              // this absolute list would be measured from the summary and widen the page.
              className="absolute inset-x-0 top-full hidden max-h-[calc(100dvh-4rem)] overflow-y-auto border-y border-sand-200 bg-white shadow-md group-open:block"
              data-testid="mobile-menu"
            >
              <ul className="mx-auto grid max-w-7xl gap-1 px-4 py-3 sm:grid-cols-2">
                {NAV_ITEMS.map((item) => (
                  <li key={item.slug}>
                    <NavLink
                      to={item.to}
                      end={item.to === "/"}
                      data-testid={`mobile-nav-link-${item.slug}`}
                      className={(s) => `block ${linkClass(s)}`}
                      onClick={() => setMenuOpen(false)}
                    >
                      {t(item.label)}
                    </NavLink>
                  </li>
                ))}
                <li className="sm:hidden">{accountLink}</li>
              </ul>
            </nav>
          </details>
        </div>
      </div>

      <nav aria-label={t("nav.mainNavigation")} className="hidden border-t border-sand-100 lg:block" data-testid="desktop-nav">
        <ul className="mx-auto flex max-w-7xl items-center gap-1 px-4 py-1">
          {NAV_ITEMS.map((item, i) => (
            <li key={item.slug} className={inBar(i)}>
              <NavLink to={item.to} end={item.to === "/"} prefetch="intent" data-testid={`nav-link-${item.slug}`} className={linkClass}>
                {t(item.label)}
              </NavLink>
            </li>
          ))}
          {moreItems.length > 0 && (
            <li className={`relative ${fit.xl >= NAV_ITEMS.length ? "xl:hidden" : ""}`}>
              {/* Keyed by the path: a navigation closes it. */}
              <details key={location.pathname} className="group/more" data-testid="nav-more">
                <summary className="cursor-pointer list-none whitespace-nowrap rounded-md px-3 py-2 text-[0.95rem] text-ink hover:bg-sand-100 [&::-webkit-details-marker]:hidden">
                  {t("nav.more")} <span aria-hidden="true">▾</span>
                </summary>
                <ul className="absolute end-0 top-full z-50 mt-1 hidden min-w-48 gap-1 group-open/more:grid rounded-md border border-sand-200 bg-white p-1 shadow-lg">
                  {moreItems.map(({ item, className }) => (
                    <li key={item.slug} className={className ?? ""}>
                      <NavLink to={item.to} end={item.to === "/"} data-testid={`nav-more-link-${item.slug}`} className={(s) => `block ${linkClass(s)}`}>
                        {t(item.label)}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          )}
        </ul>
      </nav>

      {/* On a page that does not hydrate the field is in the HTML, hidden, for app/enhance/reading.js to open. */}
      {(searchOpen || staticPage) && (
        <div id="site-search" className="relative border-t border-sand-200 bg-white" hidden={!searchOpen}>
          <Form method="get" action="/search" role="search" className="mx-auto flex max-w-3xl gap-2 px-4 py-3">
            <label htmlFor="site-search-q" className="sr-only">
              {t("nav.search")}
            </label>
            <input
              ref={searchInput}
              id="site-search-q"
              name="q"
              type="search"
              maxLength={200}
              required
              placeholder={t("nav.searchPlaceholder")}
              className="min-w-0 flex-1 rounded-md border border-sand-300 px-3 py-2"
              data-testid="search-input"
              // Suggestions as you type (app/enhance/suggest.js, decision 0128): loaded on the first focus, here on a
              // hydrated page, by reading.js (data-suggest-src) on a static one; their words in the page's language.
              autoComplete="off"
              data-suggest-src={suggestScript}
              data-suggest-label={t("search.suggestions")}
              data-suggest-tag={t("tags.kicker")}
              onFocus={(e) => {
                const field = e.currentTarget;
                inApp<{ attach: (input: HTMLInputElement) => void }>(suggestScript, (m) => m.attach(field));
              }}
            />
            <button type="submit" className="rounded-md bg-desert-600 px-4 py-2 font-bold text-white hover:bg-desert-700">
              {t("nav.searchSubmit")}
            </button>
          </Form>
        </div>
      )}
    </header>
  );
}
