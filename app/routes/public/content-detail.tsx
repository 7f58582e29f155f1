import { useEffect } from "react";
import { isRouteErrorResponse, redirect, useLocation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/content-detail";
import { ContentDetail } from "#app/components/content/content-detail.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { mediaSourcesOf, type DetailPage } from "#domain/detail-view.ts";
import { detailMeta } from "#app/lib/detail-meta.ts";
import type { ReadingHandle } from "#app/lib/static-page.ts";
import { playerModule } from "#app/components/media/video-player.tsx";
import liveModule from "#app/enhance/live.js?url&no-inline";
import { getDb } from "#server/db/client.server.ts";
import { detailTypeOfPath, loadDetailPage } from "#server/content/detail-page.server.ts";
import { languageOfAddress, localizedPath } from "#domain/addresses.ts";
import { noteShownItem } from "#server/content/views.server.ts";
import { loadOrGoHome } from "#server/http/responses.server.ts";
import { sendViewBeacon, VIEW_META } from "#app/lib/view-beacon.ts";
// «الأكثر قراءة» of the last 24 hours and 7 days under the item, in the page's language (issue 45).
import { MostReadBlock } from "#app/components/content/most-read.tsx";
import { mostReadLists } from "#server/analytics/top.server.ts";

/** The detail page of every content type with a page of its own; the type is the one whose public path the URL is under. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const { pathname, searchParams } = new URL(request.url);
  const type = detailTypeOfPath(pathname);
  try {
    // A database that cannot be reached at all is a failed load too: home with the toast (spec §2), not the error screen.
    const db = await loadOrGoHome(type, getDb);
    // A live coverage's `?before=<id>`: its older entries, without JavaScript (issue 44). The most-read lists never
    // throw (hidden when they cannot be read).
    const [page, mostRead] = await Promise.all([loadDetailPage(db, type, params.slug, { searchParams }), mostReadLists(db, languageOfAddress(pathname))]);
    // Its surrogate key; the view itself is counted by the page's beacon (POST /api/views, decision 0145).
    noteShownItem({ contentType: type, contentId: page.item.id });
    return { ...page, mostRead };
  } catch (thrown) {
    throw inLanguageOf(pathname, thrown);
  }
}

/**
 * A redirect the loaders write language-neutral (an old slug's 301, home after a failed load) leads to the address
 * in the language of the page asked for (decision 0143): a French reader stays under /fr.
 */
function inLanguageOf(pathname: string, thrown: unknown): unknown {
  if (!(thrown instanceof Response)) return thrown;
  const location = thrown.headers.get("Location");
  if (location) thrown.headers.set("Location", localizedPath(languageOfAddress(pathname), location));
  return thrown;
}

/**
 * A detail page is HTML with the small reading script (no React in the browser); one that plays a video also
 * loads the player's script (app/enhance/player.js, decision 0132), a live coverage its live script
 * (app/enhance/live.js). Reached by a client-side navigation it is the app's.
 */
export const handle: ReadingHandle = {
  hydrate: false,
  enhance: (data) => {
    const page = data as DetailPage;
    // A live coverage's page keeps itself current (issue 44); one that has ended is plain HTML.
    return [...(mediaSourcesOf(page).video ? [playerModule] : []), ...(page.live?.live ? [liveModule] : [])];
  },
};

/** What the page gets when the browser could not reach the server at all during a client-side navigation. */
type UnreachableData = { unreachable: true };

/** The network itself failed (fetch rejects with a TypeError), as opposed to the server answering with an error. */
const networkFailed = (error: unknown) => error instanceof TypeError || (typeof navigator !== "undefined" && navigator.onLine === false);

/**
 * Client-side navigations only (the first render uses the server's answer). Without this a failed `.data`
 * request ends on the generic error screen. Spec §2: a failed load shows the error toast and goes to /.
 * When the network is down, / cannot load either, so the reader stays here with the toast and a retry.
 * Redirects (old slugs, the server's own "go home") and the 404 pass through unchanged.
 */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  try {
    return await serverLoader();
  } catch (error) {
    if (error instanceof Response) throw error;
    if (isRouteErrorResponse(error) && error.status < 500) throw error;
    if (networkFailed(error)) return { unreachable: true } satisfies UnreachableData;
    throw redirect(localizedPath(languageOfAddress(new URL(request.url).pathname), "/?notice=load-failed"));
  }
}

export const meta: Route.MetaFunction = ({ data, matches }) =>
  data && !("unreachable" in data) ? [...detailMeta(data, matches), { name: VIEW_META, content: `${data.type}:${data.item.id}` }] : [];

export default function ContentDetailPage({ loaderData }: Route.ComponentProps) {
  const shown = "unreachable" in loaderData ? null : loaderData;
  // Reached by a client-side navigation: the application counts the view (a document load is reading.js's).
  useEffect(() => {
    if (shown) sendViewBeacon(shown.type, shown.item.id);
  }, [shown?.type, shown?.item.id]); // eslint-disable-line react-hooks/exhaustive-deps
  if ("unreachable" in loaderData) return <Unreachable attempt={loaderData} />;
  return (
    <>
      <ContentDetail page={loaderData} />
      <MostReadBlock lists={loaderData.mostRead} className="max-w-4xl" />
    </>
  );
}

/**
 * The page in place of the item when the network failed: the spec's error toast, then a reload and the way
 * home. Both are whole-document loads: a client-side retry would also revalidate the root loader, whose failure
 * while still offline would end on the error screen after all.
 */
function Unreachable({ attempt }: { attempt: UnreachableData }) {
  const { t } = useTranslation();
  const toast = useToast();
  const { pathname } = useLocation();
  // Once per failed attempt (a new navigation gives a new object), not on every render.
  useEffect(() => {
    toast({ title: t("errors.loadFailedTitle"), description: t("errors.loadFailed"), variant: "destructive" });
  }, [attempt, toast, t]);
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center" data-testid="detail-unreachable">
      <h1 className="text-2xl font-bold">{t("errors.loadFailed")}</h1>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <a href={pathname} className="rounded-md bg-desert-600 px-5 py-3 font-bold text-white hover:bg-desert-700" data-testid="detail-retry">
          {t("newsList.retry")}
        </a>
        <a href={localizedPath(languageOfAddress(pathname), "/")} className="rounded-md border border-sand-300 px-5 py-3 font-bold hover:bg-sand-100">
          {t("errors.backHome")}
        </a>
      </div>
    </section>
  );
}
