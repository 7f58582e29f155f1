import { useLocalPath } from "#app/lib/addresses.ts";
import { data } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/legal";
import { directionOf } from "#domain/language.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { neutralPath } from "#domain/addresses.ts";
import { robotsMeta, rootData } from "#app/lib/seo.ts";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { LEGAL_PAGES, loadLegalPage, type LegalPage } from "#server/content/legal.server.ts";

/** /privacy and /terms: editor-maintained Markdown (content/legal), rendered on the server. */
export async function loader({ request }: Route.LoaderArgs) {
  const page = neutralPath(new URL(request.url).pathname).replace(/^\/+|\/+$/g, "") as LegalPage;
  if (!LEGAL_PAGES.includes(page)) throw data(null, { status: 404 });
  const lang = languageOfRequest(request);
  const doc = await loadLegalPage(page, lang);
  if (!doc) throw data(null, { status: 404 });
  return { page, title: doc.title, html: doc.html, docLang: doc.lang, translated: doc.lang === lang };
}

/** Text to read: no React in the browser (app/lib/static-page.ts). */
export const handle: ReadingHandle = { hydrate: false };

export const meta: Route.MetaFunction = ({ data: page, matches }) => {
  const root = rootData(matches);
  const siteName = (root?.lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  if (!page) return [{ title: siteName }];
  // The canonical URL and the language versions: root.tsx, for every reading page.
  return [{ title: siteName ? `${page.title} | ${siteName}` : page.title }, robotsMeta()];
};

export default function LegalPageView({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const local = useLocalPath();
  const { html, docLang, translated, page } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10" data-testid={`legal-${page}`}>
      {!translated && (
        <p className="mb-6 rounded-md border border-sand-300 bg-sand-100 px-4 py-3 text-sm" role="note">
          {t("legal.notTranslated")}
        </p>
      )}
      <article
        lang={docLang}
        dir={directionOf(docLang)}
        className="leading-loose text-ink [&_a]:font-bold [&_a]:text-desert-700 [&_a]:underline [&_code]:rounded [&_code]:bg-sand-100 [&_code]:px-1 [&_h1]:mb-2 [&_h1]:text-3xl [&_h1]:font-bold [&_h2]:mb-2 [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-bold [&_h3]:mt-6 [&_h3]:font-bold [&_hr]:my-8 [&_hr]:border-sand-300 [&_li]:my-1 [&_ol]:list-decimal [&_ol]:ps-6 [&_p]:my-3 [&_ul]:list-disc [&_ul]:ps-6"
        // Safe: server/content/markdown.server.ts escapes every character of the source and only links http(s) and relative URLs.
        // Its links to the site's pages lead to them in the page's language (issue 42).
        dangerouslySetInnerHTML={{ __html: html.replace(/href="(\/[^"]*)"/g, (_, path: string) => `href="${local(path)}"`) }}
      />
    </div>
  );
}
