import { Form, NavLink, useLocation } from "react-router";
import { Link } from "#app/lib/link.tsx";
import { localizedPath } from "#domain/addresses.ts";
import { useLocalPath } from "#app/lib/addresses.ts";
import { useTranslation } from "#app/lib/i18n.ts";
import { NAV_FIT, NAV_ITEMS } from "#domain/navigation.ts";
import type { Language } from "#domain/language.ts";
import { CloseIcon, MenuIcon, SearchIcon } from "#app/components/ui/icons.tsx";
// no-inline: under 4 KB, Vite would inline it in every page as a data: URL (which the CSP refuses to run).
import suggestScript from "#app/enhance/suggest.js?url&no-inline";
import { Logo } from "./logo.tsx";
import { LiveTicker } from "./live-ticker.tsx";
import { DateLine } from "./date-line.tsx";

type HeaderProps = {
  lang: Language;
  siteName: string;
  logoUrl: string;
  logoFallbackUrl: string;
  signedIn: boolean;
};

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-3 py-2 text-[0.95rem] transition-colors ${isActive ? "bg-desert-600 text-white font-bold" : "text-ink hover:bg-sand-100"}`;

/**
 * The language toggle: FR while Arabic (or English) is shown, ع while French is shown. A plain link to the same
 * page's address in the other language (issue 42), so it works without JavaScript and a crawler follows it; with
 * JavaScript, app/enhance/reading.js keeps the choice (data-language-toggle) for the bare entry `/`.
 */
export function LanguageToggle({ lang }: { lang: Language }) {
  const { t } = useTranslation();
  const location = useLocation();
  const target: Language = lang === "fr" ? "ar" : "fr";
  const label = lang === "fr" ? "ع" : "FR";
  return (
    <a
      href={localizedPath(target, location.pathname + location.search)}
      hrefLang={target}
      lang={target}
      data-language-toggle={target}
      data-testid="language-toggle"
      // The accessible name starts with the visible label, as speech-input users say what they see.
      aria-label={`${label} – ${t("language.switchTo")}`}
      className="inline-flex h-10 min-w-10 items-center justify-center rounded-md border border-sand-300 px-2 font-bold text-ink hover:bg-sand-100"
    >
      {label}
    </a>
  );
}

/**
 * The public header. Its behaviours (the search field opened in place, the menus' state and Escape, closing them on
 * a navigation) are app/enhance/reading.js's on every page, static or React: this renders the markup and the words,
 * and keeps no state, so React never writes over what the script set.
 */
export function Header({ lang, siteName, logoUrl, logoFallbackUrl, signedIn }: HeaderProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const local = useLocalPath();
  const fit = NAV_FIT[lang];

  const accountLink = signedIn ? (
    <Link to="/admin" data-testid="admin-link" className="rounded-md bg-palm-700 px-3 py-2 text-sm font-bold text-white hover:bg-palm-800">
      {t("nav.admin")}
    </Link>
  ) : (
    <Link to={local("/auth")} data-testid="sign-in-link" className="rounded-md bg-palm-700 px-3 py-2 text-sm font-bold text-white hover:bg-palm-800">
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
      {/* Today's date, Gregorian and Hijri, when DATE_CALENDARS asks for the Hijri one (decision 0148). */}
      <DateLine lang={lang} />
      {/* Narrower gaps on the smallest phones: the French logo and the three buttons fill 320px. */}
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-1 px-4 sm:gap-2">
        <Logo src={logoUrl} fallbackSrc={logoFallbackUrl} name={siteName} />
        <div className="ms-auto flex items-center gap-1 sm:gap-2">
          {/* A link to the search page, so it works without JavaScript; with it, it opens the field here (data-opens). */}
          <a
            href={local("/search")}
            data-opens="site-search"
            data-testid="search-button"
            aria-label={t("nav.search")}
            className="inline-flex h-10 w-10 items-center justify-center rounded-md text-ink hover:bg-sand-100"
          >
            <SearchIcon />
          </a>
          <LanguageToggle lang={lang} />
          <div className="hidden sm:block">{accountLink}</div>
          {/*
            The phone menu is a disclosure (<details>), so it opens without JavaScript; with it, reading.js keeps
            its button's state and label, closes it on Escape and when a link is followed. The list is placed
            under the header's bar.
          */}
          <details className="group lg:hidden">
            <summary
              data-testid="menu-button"
              data-label-open={t("nav.openMenu")}
              data-label-close={t("nav.closeMenu")}
              aria-label={t("nav.openMenu")}
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
                    <NavLink to={local(item.to)} end={item.to === "/"} data-testid={`mobile-nav-link-${item.slug}`} className={(s) => `block ${linkClass(s)}`}>
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
              <NavLink to={local(item.to)} end={item.to === "/"} prefetch="intent" data-testid={`nav-link-${item.slug}`} className={linkClass}>
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
                      <NavLink to={local(item.to)} end={item.to === "/"} data-testid={`nav-more-link-${item.slug}`} className={(s) => `block ${linkClass(s)}`}>
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

      {/* The root data's ticker (issue 44): live coverages and breaking items; no bar when there are none. */}
      <LiveTicker lang={lang} />

      {/* Opened in place by app/enhance/reading.js; suggestions as you type are its to load (decision 0128). */}
      <div id="site-search" className="relative border-t border-sand-200 bg-white" hidden>
        <Form method="get" action={local("/search")} role="search" className="mx-auto flex max-w-3xl gap-2 px-4 py-3">
          <label htmlFor="site-search-q" className="sr-only">
            {t("nav.search")}
          </label>
          <input
            id="site-search-q"
            name="q"
            type="search"
            maxLength={200}
            required
            placeholder={t("nav.searchPlaceholder")}
            className="min-w-0 flex-1 rounded-md border border-sand-300 px-3 py-2"
            data-testid="search-input"
            autoComplete="off"
            data-suggest-src={suggestScript}
            data-suggest-label={t("search.suggestions")}
            data-suggest-tag={t("tags.kicker")}
          />
          <button type="submit" className="rounded-md bg-desert-600 px-4 py-2 font-bold text-white hover:bg-desert-700">
            {t("nav.searchSubmit")}
          </button>
        </Form>
      </div>
    </header>
  );
}
