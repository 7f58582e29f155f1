import type { Route } from "./+types/news";
import { z } from "zod/mini";
import { pageNumber } from "#domain/query.ts";
import { getDb } from "#server/db/client.server.ts";
import { sharedCacheControl } from "#server/http/shared-cache.server.ts";
import { apiJson, handleApi, methodNotAllowed, parseQuery } from "#server/http/api.server.ts";
import { newsPage } from "#server/content/news-feed.server.ts";
import { imageDetailsOf } from "#server/content/image-details.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { LANGUAGES } from "#domain/language.ts";
import { newsCardsHtml } from "#app/lib/news-cards.server.tsx";
import type { Translations } from "#app/lib/i18n.ts";
import { translationsFor } from "#server/http/i18n.server.ts";

const Query = z.strictObject({ page: pageNumber(500), lang: z.optional(z.enum(LANGUAGES)) });

/**
 * GET /api/news?page=N: the news listing's next pages, as JSON for its load-more and infinite scroll, with
 * `images`: the media library's details (alt text, caption, credit, focal point) of that page's pictures by URL.
 * Asked for with `Accept: text/html` (the listing's script), the same page as the cards' HTML instead, in the
 * language `lang` names (the page's: its address decided it), else the reader's stored choice.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return handleApi("api/news", async () => {
    const { page, lang: asked } = parseQuery(request, Query);
    const db = await getDb();
    const result = await newsPage(db, page);
    const images = await imageDetailsOf(db, result.items);
    // The listing's script (app/enhance/news.js) asks for the cards as the page renders them, in its language.
    if (request.headers.get("Accept")?.startsWith("text/html")) {
      const lang = asked ?? languageOfRequest(request);
      // Named in the address, the language makes the answer the same for everyone: a shared cache may keep it.
      const headers = asked
        ? { "Content-Type": "text/html; charset=utf-8", "Cache-Control": sharedCacheControl(30), Vary: "Accept" }
        : { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, max-age=30", Vary: "Accept, Cookie, Accept-Language" };
      return new Response(newsCardsHtml(lang, translationsFor(lang) as Translations, result, images), { headers });
    }
    const json = apiJson({ ...result, images }, { cache: "public, max-age=30" });
    json.headers.set("Vary", "Accept");
    return json;
  });
}

/** Any other method: 405 in the APIs' error shape. */
export const action = methodNotAllowed(["GET"]);
