import { useState, type MouseEvent } from "react";
import { data, Link, redirect, useLocation, useNavigation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/content-list";
import { AdminError } from "#app/components/admin/guard.tsx";
import { ContentCards, ContentTable, type ContentRow } from "#app/components/admin/content-table.tsx";
import { DeleteDialog, DeleteStep, type DeleteTarget } from "#app/components/admin/delete-confirm.tsx";
import { BulkBar, BulkDeleteStep, bulkAsks, useRowSelection, type CategoryOption } from "#app/components/admin/bulk-actions.tsx";
import { ActionNotices, useNewsroomFlash } from "#app/components/admin/flash.tsx";
import { linkWith, type ListAnswer } from "#app/components/admin/content-list/list-answer.ts";
import { ListFeeds } from "#app/components/admin/content-list/list-feeds.tsx";
import { ListFilters, ListPages, STATUS_FILTERS, type StatusFilter } from "#app/components/admin/content-list/list-filters.tsx";
import { useListAnswer } from "#app/components/admin/content-list/use-list-answer.ts";
import { PlusIcon } from "#app/components/admin/icons.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { asText, contentTypeOfUrl } from "#domain/content-form.ts";
import { contentTypeBySegment, type ContentTypeDefinition } from "#domain/content-types/index.ts";
import { isVideoId } from "#domain/video-source.ts";
import { formatList } from "#domain/format.ts";
import { getDb } from "#server/db/client.server.ts";
import { getConfig } from "#server/config.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { failedWhile, formAction, formSuccess } from "#server/http/form-action.server.ts";
import { requirePermission, userCan } from "#server/auth/session.server.ts";
import { getForStaff, listCategoryOptions, listForStaff, type StaffItem } from "#server/content/newsroom/read.server.ts";
import { deleteItem } from "#server/content/newsroom/write.server.ts";
import { authorizeBulk, idsMatching, parseBulkBody, runBulkAction } from "#server/content/bulk.server.ts";
import { assertMayEdit } from "#server/content/ownership.server.ts";
import { BadRequestError } from "#server/http/errors.server.ts";
import { flashCookie, takeFlash } from "#server/content/newsroom/flash.server.ts";
import { hooksOf } from "#server/content/types/index.server.ts";
import { getVideoLibrary } from "#server/media/video/index.server.ts";
import type { Language } from "#domain/language.ts";
import { authorName, type BylineAuthor } from "#domain/authors.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { parseId } from "#domain/ids.ts";

/**
 * One list screen for every content type (back-office.md §2): /admin/articles, /admin/news, /admin/coverage,
 * /admin/podcasts, /admin/programs and /admin/media. The registry says which columns, order and actions;
 * the server pages, searches and filters by status (GET parameters, so every view is a link).
 */

function typeOf(request: Request): ContentTypeDefinition {
  const def = contentTypeOfUrl(request.url);
  if (!def) throw data(null, { status: 404, statusText: "Not Found" });
  return def;
}

function query(url: URL) {
  const status = url.searchParams.get("status") as StatusFilter | null;
  const page = Number(url.searchParams.get("page") ?? 1);
  return {
    q: (url.searchParams.get("q") ?? "").trim().slice(0, 200),
    status: status && STATUS_FILTERS.includes(status) ? status : "all",
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
  };
}

/** Where the extra action opens a podcast's audio or a program's video: a hosted video id becomes its file. */
async function openMediaOf(def: ContentTypeDefinition, item: StaffItem): Promise<string | null> {
  const value = def.openMediaField ? item[def.openMediaField] : null;
  if (typeof value !== "string" || !value) return null;
  if (!isVideoId(value)) return value;
  try {
    const playback = await getVideoLibrary().playback(value);
    return playback?.mp4 ?? playback?.hls ?? playback?.embed ?? null;
  } catch (error) {
    logger.warn({ err: error }, "video playback not found for the list");
    return null;
  }
}

async function rowOf(def: ContentTypeDefinition, item: StaffItem, lang: Language): Promise<ContentRow> {
  const values: Record<string, unknown> = {};
  for (const column of def.columns) values[column.field] = item[column.field] ?? null;
  // The author column shows the item's byline (its profiles, decision 0121, in the back-office's language) when it names any.
  const byline = Array.isArray(item.authors) ? (item.authors as BylineAuthor[]).map((a) => authorName(lang, a)) : [];
  if ("author_name" in values && byline.length) values.author_name = formatList(byline, lang);
  const summary = item[def.summaryField];
  return {
    id: item.id,
    title: item.title,
    status: item.status,
    summary: typeof summary === "string" ? summary : null,
    categoryName: item.category_name ?? null,
    categoryNameFr: item.category_name_fr ?? null,
    openMedia: await openMediaOf(def, item),
    values,
  };
}

export async function loader({ request }: Route.LoaderArgs) {
  const def = typeOf(request);
  const user = await requirePermission(request, def.permissions.write);
  const url = new URL(request.url);
  const { q, status, page } = query(url);
  const db = await getDb();
  const { flash, headers } = takeFlash(request);
  let loadFailed = false;
  let list: Awaited<ReturnType<typeof listForStaff>> = {
    items: [],
    total: 0,
    page,
    perPage: 20,
    counts: { all: 0, draft: 0, review: 0, changes_requested: 0, approved: 0, published: 0, scheduled: 0 },
  };
  try {
    list = await listForStaff(db, def.type, { q, status, page });
  } catch (error) {
    logger.error({ err: error, type: def.type }, "admin list failed");
    loadFailed = true;
  }
  const canDelete = userCan(user, def.permissions.delete);
  // Publishing, unpublishing and scheduling in bulk need content.publish (issue 40): not offered without it.
  const canPublish = userCan(user, "content.publish");
  // The bulk action "change the category" offers the categories the type's form offers.
  let categories: CategoryOption[] | null = null;
  if (def.fields.some((f) => f.kind === "category")) {
    try {
      categories = (await listCategoryOptions(db, def.type)).map((c) => ({ id: c.id, name: c.name, nameFr: c.nameFr }));
    } catch (error) {
      logger.error({ err: error, type: def.type }, "admin list categories failed");
    }
  }
  // The confirmation step of a browser without JavaScript: /admin/news?delete=12.
  const deleteId = parseId(url.searchParams.get("delete"));
  let confirmDelete: DeleteTarget | null = null;
  if (canDelete && deleteId !== null) {
    const item = list.items.find((i) => i.id === deleteId) ?? (await getForStaff(db, def.type, deleteId));
    if (item) confirmDelete = { id: item.id, title: item.title };
  }
  return data(
    {
      segment: def.segment,
      // A type with a feed (podcasts) announces its address for the podcast directories.
      feedUrl: def.feed ? `${getConfig().publicUrl}${def.feed.path}` : null,
      // …and each program's own feed (podcasts that belong to a program).
      programFeeds: ((await hooksOf(def.type).feeds?.(db)) ?? []).map((f) => ({ title: f.title, url: `${getConfig().publicUrl}${f.path}` })),
      rows: await Promise.all(list.items.map((item) => rowOf(def, item, languageOfRequest(request)))),
      total: list.total,
      page: list.page,
      pages: Math.max(1, Math.ceil(list.total / list.perPage)),
      counts: list.counts,
      q,
      status,
      canDelete,
      canPublish,
      categories,
      confirmDelete,
      loadFailed,
      flash,
    },
    { headers: { ...headers, "Cache-Control": "private, no-store" } },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

/**
 * The list's action: a bulk action on the selected items (intent `bulk`, server/content/bulk.server.ts), or delete
 * an item, then back to the same view of the list. The type's write permission; a delete its delete permission.
 */
export async function action({ request }: Route.ActionArgs) {
  const def = typeOf(request);
  const user = await requirePermission(request, def.permissions.write);
  // A delete is a few hidden fields, a bulk action at most a thousand ids: the form limit is plenty.
  return formAction<ListAnswer>(request, { limit: "form", echo: (form) => (form?.get("intent") === "bulk" ? { intent: "bulk" } : {}) }, async (form) => {
    if (form.get("intent") === "bulk") return bulkAction(request, def, user, form);
    if (form.get("intent") !== "delete") throw new BadRequestError("BAD_REQUEST", "Not a delete of an item nor a bulk action.");
    await requirePermission(request, def.permissions.delete);
    const id = parseId(form.get("id"));
    if (id === null) throw new BadRequestError("BAD_REQUEST", "Not a delete of an item.");
    const back = asText(form.get("back"));
    const list = `/admin/${def.segment}`;
    // Ownership (issue 40): another person's item needs content.others (403 NOT_YOUR_ITEM).
    await assertMayEdit(await getDb(), user, def.type, id);
    try {
      await deleteItem(await getDb(), def.type, id, user);
    } catch (error) {
      // An item already gone is a NotFoundError (404 NOT_FOUND), answered as it is.
      throw failedWhile("delete failed", error, { type: def.type, id });
    }
    // Back to the view the editor came from, never elsewhere (and never to the confirmation step again).
    const params = new URLSearchParams(back.startsWith("?") ? back.slice(1) : "");
    params.delete("delete");
    const search = params.toString();
    return redirect(search ? `${list}?${search}` : list, { headers: { "Set-Cookie": flashCookie({ kind: "deleted", type: def.type }) } });
  });
}

/** The bar's post as the JSON API's body (one validation, parseBulkBody), run, and answered with what changed. */
async function bulkAction(request: Request, def: ContentTypeDefinition, user: Awaited<ReturnType<typeof requirePermission>>, form: FormData) {
  const body: Record<string, unknown> = { action: asText(form.get("action")) };
  if (form.get("all") === "1") body.filter = { q: asText(form.get("q")).slice(0, 200), status: asText(form.get("status")) || "all" };
  else {
    const ids = [...form.getAll("id").map(asText), ...asText(form.get("ids")).split(",")].map((v) => v.trim()).filter(Boolean);
    // The JSON API takes numbers: an id in range becomes one, anything else goes as typed and is refused there.
    if (ids.length) body.ids = ids.map((v) => parseId(v) ?? v);
  }
  for (const name of ["publish_date", "category_id", "tag"]) {
    const value = asText(form.get(name));
    if (value) body[name] = value;
  }
  // "Use today's date" (issue 40): without it, publishing keeps an item's earlier publish date.
  if (body.action === "publish" && form.get("use_today") === "1") body.use_today = true;
  // content.publish for what readers see, and ownership without content.others (issue 40).
  const bulk = authorizeBulk(parseBulkBody(body), user);
  const db = await getDb();
  if (bulk.action === "delete") await requirePermission(request, def.permissions.delete);
  // A delete, an unpublish and an action over everything the filter matches ask first (decision 0140). Without
  // JavaScript the dialog did not ask: the page asks, with the count, then posts again with `confirmed`.
  if (bulkAsks(bulk.action, "filter" in bulk.selection) && form.get("confirmed") !== "1") {
    const selection = bulk.selection;
    const count = "ids" in selection ? selection.ids.length : (await idsMatching(db, def.type, { ...selection.filter, ownedBy: bulk.ownedBy })).length;
    const fields: Record<string, string> = {
      action: bulk.action,
      ...("ids" in selection ? { ids: selection.ids.join(",") } : { all: "1", q: selection.filter.q ?? "", status: selection.filter.status ?? "all" }),
    };
    for (const name of ["publish_date", "category_id", "tag", "use_today"]) {
      const value = asText(form.get(name));
      if (value) fields[name] = value;
    }
    return formSuccess<ListAnswer>({ confirmBulk: { count, fields } });
  }
  try {
    const done = await runBulkAction(db, def.type, bulk, user);
    return formSuccess<ListAnswer>({ bulk: { action: done.action, count: done.count } });
  } catch (error) {
    throw failedWhile("bulk action failed", error, { type: def.type, action: bulk.action });
  }
}

export const meta: Route.MetaFunction = ({ matches, data }) => authMeta(matches, contentTypeBySegment(data?.segment)?.labels.title ?? "admin.dashboard");

export default function ContentListPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const def = contentTypeBySegment(loaderData.segment)!;
  const location = useLocation();
  const navigation = useNavigation();
  const search = new URLSearchParams(location.search);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  // A new answer from the server (the list after a delete) closes the dialog.
  const [shownRows, setShownRows] = useState(loaderData.rows);
  if (shownRows !== loaderData.rows) {
    setShownRows(loaderData.rows);
    setDeleting(null);
  }
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const title = t(def.labels.title);
  const back = linkWith(search, {});

  useNewsroomFlash(loaderData.flash);
  const bulk = useRowSelection(
    loaderData.rows.map((r) => r.id),
    `${loaderData.q}\n${loaderData.status}`,
  );
  const loadFailed = loaderData.loadFailed ? { title: t("newsroom.ui.loadFailed", { title }), key: loaderData } : null;
  const { bulkFailure, deleteFailure, bulkDoneText } = useListAnswer(actionData, loadFailed, bulk.clear);

  const actions = {
    editHref: (row: ContentRow) => `/admin/${def.segment}/${row.id}`,
    deleteHref: loaderData.canDelete ? (row: ContentRow) => linkWith(search, { delete: row.id }) : null,
    onDelete: (row: ContentRow, e: MouseEvent<HTMLAnchorElement>) => {
      e.preventDefault();
      setDeleting({ id: row.id, title: row.title });
    },
  };

  return (
    <section data-testid="content-list" data-type={def.type} className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{title}</h1>
        <Link
          to={`/admin/${def.segment}/new`}
          className="inline-flex items-center gap-2 rounded-md bg-desert-600 px-4 py-2 font-bold text-white hover:bg-desert-700"
          data-testid="add-new"
        >
          <PlusIcon />
          {t("admin.addNew")}
        </Link>
      </div>

      <ListFeeds feedUrl={loaderData.feedUrl} programFeeds={loaderData.programFeeds} />

      <ActionNotices
        flash={loaderData.flash}
        failure={deleteFailure ? { title: t("newsroom.ui.deleteFailed"), message: t(deleteFailure) } : null}
        testId="list-failure"
      />
      {loaderData.confirmDelete && <DeleteStep target={loaderData.confirmDelete} back={back} />}
      {actionData?.ok && actionData.confirmBulk && <BulkDeleteStep count={actionData.confirmBulk.count} fields={actionData.confirmBulk.fields} back={back} />}
      {bulkDoneText && (
        <noscript>
          <p role="status" className="rounded-md border border-s-4 border-palm-600 bg-emerald-50 px-4 py-3 text-sm text-emerald-950">
            <strong>{t("newsroom.ui.successTitle")}</strong> {bulkDoneText}
          </p>
        </noscript>
      )}

      <ListFilters search={search} status={loaderData.status} q={loaderData.q} counts={loaderData.counts} />

      <BulkBar
        def={def}
        state={bulk}
        total={loaderData.total}
        pageSize={loaderData.rows.length}
        filter={{ q: loaderData.q, status: loaderData.status }}
        categories={loaderData.categories}
        canDelete={loaderData.canDelete}
        canPublish={loaderData.canPublish}
        failure={bulkFailure}
      />

      <div aria-busy={loading} data-state={loading ? "loading" : "idle"} data-testid="list-body" data-total={loaderData.total}>
        {loading && (
          <p role="status" className="mb-3 text-sm text-ink-soft" data-testid="list-loading">
            {t("common.loading")}
          </p>
        )}
        {loaderData.rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-sand-300 bg-white px-4 py-10 text-center text-ink-soft" data-testid="list-empty">
            {t("admin.empty")}
          </p>
        ) : (
          <>
            <ContentTable def={def} rows={loaderData.rows} actions={actions} selection={bulk.selection} />
            <ContentCards def={def} rows={loaderData.rows} actions={actions} selection={bulk.selection} />
          </>
        )}
      </div>

      <ListPages search={search} page={loaderData.page} pages={loaderData.pages} />

      <DeleteDialog target={deleting} back={back} onClose={() => setDeleting(null)} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
