import { useContext, useEffect, useMemo, type ReactNode } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  useLocation,
  useMatches,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "react-router";
import { I18nextProvider } from "react-i18next";
import { StaticDocumentContext } from "./lib/link.tsx";
import type { i18n as I18n } from "i18next";
import type { Route } from "./+types/root";
import { createI18n, switchI18n } from "./lib/i18n.ts";
import { translationsOf, type RootLoaderData, type SignedInUser, type Translations } from "./lib/root-data.ts";
import { directionOf, type Language } from "#domain/language.ts";
import { configureFormat } from "#domain/format.ts";
import { isAddressedByLanguage, languageOfAddress, neutralPath } from "#domain/addresses.ts";
import { audiencePageOf } from "#domain/audience.ts";
import { VIEW_META } from "./lib/view-beacon.ts";
import { languagesWithText } from "#domain/localized.ts";
import { pageAddresses } from "./lib/addresses.ts";
import { PREFETCH_RULES } from "#domain/navigation.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { readingPreferencesOf } from "#server/http/reading-preferences.server.ts";
import { DEFAULT_READING, readingAttributes } from "#domain/reading-preferences.ts";
import { useNonce } from "./lib/nonce.tsx";
import { useDocumentLoadsForStaticPages, useEnhancements, useStaticPage } from "./lib/static-page.ts";
import readingScript from "./enhance/reading.js?url";
import { ToastRegion } from "./components/ui/toast.tsx";
import { ErrorScreen } from "./components/layout/error-screens.tsx";
import { publicConfig } from "#server/config.server.ts";
import { translationsJsonFor } from "#server/http/i18n.server.ts";
import { getSessionUser } from "#server/auth/session.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { tickerItems } from "#server/content/live/ticker.server.ts";
import { markDegraded } from "#server/http/render-scope.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import type { TickerItem } from "#domain/live.ts";
import "./fonts/fonts.css";
import { fontPreloads } from "./lib/fonts.ts";
import "./app.css";
import { robotsMeta } from "./lib/seo.ts";

async function signedInUser(request: Request): Promise<SignedInUser | null> {
  const user = await getSessionUser(request);
  return user && { id: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin };
}

/**
 * The header's ticker on a reading page (one cached read for all pages: server/content/live/ticker.server.ts); none
 * on the back-office's pages, and none rather than a failed page when it cannot be read.
 */
async function tickerOf(request: Request, lang: Language): Promise<TickerItem[]> {
  if (!isAddressedByLanguage(new URL(request.url).pathname)) return [];
  try {
    return await tickerItems(await getDb(), lang);
  } catch (error) {
    logger.warn({ err: error }, "ticker failed");
    markDegraded();
    return [];
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  const lang = languageOfRequest(request);
  return {
    lang,
    dir: directionOf(lang),
    translationsJson: translationsJsonFor(lang),
    site: publicConfig(),
    year: new Date().getFullYear(),
    // The header shows the admin link instead of sign-in when set. No session cookie, no database work.
    user: await signedInUser(request),
    ticker: await tickerOf(request, lang),
    reading: readingPreferencesOf(request.headers.get("Cookie")),
  } satisfies RootLoaderData;
}

/** Declared in app/lib/root-data.ts, which the modules root.tsx imports can read without importing root.tsx. */
export type { RootLoaderData } from "./lib/root-data.ts";

/**
 * Root data (language, strings, site settings) changes only after a form post, or on a move to an address in
 * another language (issue 42: the address decides a reading page's language).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) => {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  const addressed = isAddressedByLanguage(currentUrl.pathname) || isAddressedByLanguage(nextUrl.pathname);
  return addressed && languageOfAddress(currentUrl.pathname) !== languageOfAddress(nextUrl.pathname);
};

/**
 * The page's canonical URL and its language versions (`hreflang`, reciprocal, `x-default` the Arabic address), in
 * one place for every reading page (docs/decisions/0143-language-addresses.md). A detail page names its canonical
 * itself (app/lib/seo.ts: an item first published elsewhere has another); its alternates leave out the languages
 * the item has no text of its own in. Nothing on the 404 page, an error, or an address of all languages (/admin).
 */
function PageAddressLinks({ lang, base }: { lang: Language; base: string }) {
  const location = useLocation();
  const matches = useMatches();
  // Any route's error, not only the root's (useRouteError): a missing item's 404 is its layout's boundary.
  const errors = useContext(DataRouterStateContext)?.errors;
  if (errors || matches.some((m) => /^(?:unknown-url|not-found)(?:-|$)/.test(m.id))) return null;
  const detail = matches.find((m) => m.id.startsWith("detail-"))?.data as { item?: { titleFr?: string | null; titleEn?: string | null } } | undefined;
  const addresses = pageAddresses(base, lang, location, detail?.item ? languagesWithText(detail.item) : undefined);
  if (!addresses) return null;
  return (
    <>
      {!detail && <link rel="canonical" href={addresses.canonical} />}
      {addresses.alternates.map((a) => (
        <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />
      ))}
    </>
  );
}

/**
 * The page key a reading page's beacon sends (app/enhance/reading.js, decision 0147): the home page, a list, search…
 * (domain/audience.ts). An item's page names its item in its own meta; errors, the 404 page, the account pages and
 * the back-office name nothing and are not counted.
 */
function AudiencePageMeta() {
  const { pathname } = useLocation();
  const matches = useMatches();
  const errors = useContext(DataRouterStateContext)?.errors;
  if (errors || matches.some((m) => /^(?:unknown-url|not-found|detail-)/.test(m.id)) || !isAddressedByLanguage(pathname)) return null;
  const page = audiencePageOf(neutralPath(pathname));
  return page ? <meta name={VIEW_META} content={page} /> : null;
}

export const meta: Route.MetaFunction = ({ data }) => {
  const site = data?.site;
  // The home page and any reading page without a meta of its own: indexable (app/lib/seo.ts robotsMeta).
  return [{ title: site?.siteName ?? "" }, { name: "description", content: site?.siteDescription ?? "" }, robotsMeta()];
};

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

let browserI18n: I18n | undefined;
/** The server keeps one instance per language: the strings never change at run time and nothing switches it. */
const serverI18n = new Map<Language, I18n>();

/** The browser keeps one instance and switches it when the language changes. */
function useI18n(lang: Language, translations: Translations): I18n {
  return useMemo(() => {
    if (typeof document === "undefined") {
      let instance = serverI18n.get(lang);
      if (instance) return instance;
      instance = createI18n(lang, translations);
      // An error page rendered without the root data has no strings: use it, but do not keep it.
      if (Object.keys(translations).length > 0) serverI18n.set(lang, instance);
      return instance;
    }
    return browserI18nFor(lang, translations);
  }, [lang, translations]);
}

/** The browser keeps one i18next instance for the whole visit and switches its language in place. */
function browserI18nFor(...[lang, translations]: Parameters<typeof createI18n>) {
  if (!browserI18n) browserI18n = createI18n(lang, translations);
  else switchI18n(browserI18n, lang, translations);
  return browserI18n;
}

/** Lets the browser tests (and anyone debugging) know an application page is interactive; reading.js says it of the others. */
function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}

const HIDE_BROKEN_IMAGES = `addEventListener("error",function(e){var t=e.target;if(t&&t.tagName==="IMG"&&!t.hasAttribute("data-own-fallback"))t.style.display="none"},true)`;

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootLoaderData>("root");
  // Before anything below renders: the browser writes dates and digits as the server did (DATE_CALENDARS, DIGITS).
  if (data?.site.format) configureFormat(data.site.format);
  const lang: Language = data?.lang ?? "ar";
  const dir = directionOf(lang);
  const nonce = useNonce();
  const i18n = useI18n(lang, translationsOf(data));
  const staticPage = useStaticPage();
  const enhancements = useEnhancements();
  // The reader's night reading and text size on the reading pages (decision 0149); the back-office stays light.
  const { pathname } = useLocation();
  const reading = isAddressedByLanguage(pathname) ? readingAttributes(data?.reading ?? DEFAULT_READING) : { "data-theme": "light" };
  return (
    <html lang={lang} dir={dir} {...reading}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#9a4a17" />
        <Meta />
        <PageAddressLinks lang={lang} base={data?.site.publicUrl ?? ""} />
        <AudiencePageMeta />
        {/* The regular weight the page's first screen is set in (app/lib/fonts.ts, docs/decisions/0114-fonts.md). */}
        {fontPreloads(lang).map((font) => (
          <link key={font.href} rel="preload" as="font" type={font.type} crossOrigin="anonymous" href={font.href} />
        ))}
        <Links />
        {/* First in the page, so an image that fails before the app hydrates is hidden too (the spec: a load
            error hides the image), not shown as the browser's broken-image icon. Capture: error does not bubble. Images with a fallback of their own
            (the logo, social posts) are left to it. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: HIDE_BROKEN_IMAGES }} />
      </head>
      <body className="min-h-screen bg-sand-50 text-ink antialiased" data-app={staticPage ? undefined : ""}>
        <I18nextProvider i18n={i18n}>
          <StaticDocumentContext.Provider value={staticPage}>{children}</StaticDocumentContext.Provider>
          <ToastRegion />
        </I18nextProvider>
        {/* The behaviours every page has (toasts, the header, share, the logo, the stored language): on every page,
            before the application's scripts, so a toast said while React hydrates has its region (decision 0133). */}
        <script nonce={nonce} type="module" src={readingScript} />
        {staticPage ? (
          // A reading page without React in the browser (app/lib/static-page.ts): only its enhancements.
          <>
            {enhancements.map((src) => (
              <script key={src} type="module" src={src} />
            ))}
            <script type="speculationrules" dangerouslySetInnerHTML={{ __html: PREFETCH_RULES }} />
          </>
        ) : (
          <>
            <HydratedMark />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  useDocumentLoadsForStaticPages();
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <main id="main">
      <ErrorScreen error={error} />
    </main>
  );
}
