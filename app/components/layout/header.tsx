import { useEffect, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { NAV_ITEMS } from "~/lib/navigation.ts";
import type { Language } from "~/lib/language.ts";
import { CloseIcon, MenuIcon, SearchIcon } from "~/components/ui/icons.tsx";
import { Logo } from "./logo.tsx";

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

  const accountLink = signedIn ? (
    <Link to="/admin" data-testid="admin-link" className="rounded-md bg-palm-700 px-3 py-2 text-sm font-bold text-white hover:bg-palm-800">
      {t("nav.admin")}
    </Link>
  ) : (
    <Link to="/auth" data-testid="sign-in-link" className="rounded-md bg-palm-700 px-3 py-2 text-sm font-bold text-white hover:bg-palm-800">
      {t("nav.signIn")}
    </Link>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-sand-200 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85" data-testid="site-header">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t("nav.skipToContent")}
      </a>
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4">
        <Logo src={logoUrl} fallbackSrc={logoFallbackUrl} name={siteName} />
        <div className="ms-auto flex items-center gap-2">
          <button
            type="button"
            data-testid="search-button"
            aria-label={t("nav.search")}
            aria-expanded={searchOpen}
            aria-controls="site-search"
            onClick={() => setSearchOpen((v) => !v)}
            className="inline-flex h-10 w-10 items-center justify-center rounded-md text-ink hover:bg-sand-100"
          >
            <SearchIcon />
          </button>
          <LanguageToggle lang={lang} />
          <div className="hidden sm:block">{accountLink}</div>
          <button
            type="button"
            data-testid="menu-button"
            aria-label={menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((v) => !v)}
            className="inline-flex h-10 w-10 items-center justify-center rounded-md text-ink hover:bg-sand-100 lg:hidden"
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>

      <nav aria-label={t("nav.mainNavigation")} className="hidden border-t border-sand-100 lg:block">
        <ul className="mx-auto flex max-w-7xl items-center gap-1 overflow-x-auto px-4 py-1">
          {NAV_ITEMS.map((item) => (
            <li key={item.slug}>
              <NavLink to={item.to} end={item.to === "/"} prefetch="intent" data-testid={`nav-link-${item.slug}`} className={linkClass}>
                {t(item.label)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>

      {searchOpen && (
        <div id="site-search" className="border-t border-sand-200 bg-white">
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
            />
            <button type="submit" className="rounded-md bg-desert-600 px-4 py-2 font-bold text-white hover:bg-desert-700">
              {t("nav.searchSubmit")}
            </button>
          </Form>
        </div>
      )}

      <nav
        id="mobile-menu"
        aria-label={t("nav.mainNavigation")}
        hidden={!menuOpen}
        className="border-t border-sand-200 bg-white lg:hidden"
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
    </header>
  );
}
