import type { Route } from "./+types/content-detail";
import { ContentDetail } from "~/components/content/content-detail.tsx";
import { detailMeta } from "~/lib/detail-view.ts";
import { getDb } from "../../../server/db/client.ts";
import { detailTypeOfPath, loadDetailPage } from "../../../server/detail-page.ts";
import { countView } from "../../../server/content/views.ts";

/** The detail page of every content type with a page of its own; the type is the one whose public path the URL is under. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const type = detailTypeOfPath(new URL(request.url).pathname);
  const db = await getDb();
  const page = await loadDetailPage(db, type, params.slug);
  // Once per reader per day, in the background: the page never waits for the counter.
  countView(db, request, { contentType: type, contentId: page.item.id });
  return page;
}

export const meta: Route.MetaFunction = ({ data, matches }) => (data ? detailMeta(data, matches) : []);

export default function ContentDetailPage({ loaderData }: Route.ComponentProps) {
  return <ContentDetail page={loaderData} />;
}
