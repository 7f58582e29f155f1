import { useState } from "react";
import { data, Link, redirect } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/content-revisions";
import { AdminError } from "#app/components/admin/guard.tsx";
import type { FieldDifference } from "#app/components/admin/revision-diff.tsx";
import { RestoreDialog, RestoreStep, type RestoreTarget } from "#app/components/admin/revision-restore.tsx";
import { CompareView, RevisionsNav, useRevisionLabels } from "#app/components/admin/revisions/revision-parts.tsx";
import { Breadcrumbs } from "#app/components/ui/breadcrumbs.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { contentTypeOfUrl } from "#domain/content-form.ts";
import { contentTypeBySegment, EDITOR_STATUSES, type ContentTypeDefinition, type EditorStatus } from "#domain/content-types/index.ts";
import { changedFields, diffLongText, displayValue, LONG_TEXT_KINDS, type CategoryName } from "#domain/revision-diff.ts";
import { getDb, type Database } from "#server/db/client.server.ts";
import { requirePermission } from "#server/auth/session.server.ts";
import { assertMayEdit } from "#server/content/ownership.server.ts";
import { getForStaff, rowOptionsOf } from "#server/content/newsroom/read.server.ts";
import { getRevision, listRevisions, restoreRevision } from "#server/content/newsroom/revisions.server.ts";
import { BadRequestError, ValidationError } from "#server/http/errors.server.ts";
import { failedWhile, formAction } from "#server/http/form-action.server.ts";
import { formErrorOf, type FormAnswer } from "#domain/form-answer.ts";
import { Notice } from "#app/components/forms/notice.tsx";
import { flashCookie } from "#server/content/newsroom/flash.server.ts";
import { parseId } from "#domain/ids.ts";
import { listNotes } from "#server/content/item-notes.server.ts";
import { NoteThread } from "#app/components/admin/item-notes.tsx";

/**
 * An item's revisions (/admin/{segment}/:id/revisions): every save kept, newest first, and apart from them the
 * autosaves of drafts (what was being typed, kept every few seconds). Any two can be compared: only the fields
 * that differ, with their values as people read them (a category's name, yes/no, dates, image thumbnails) and
 * long text word by word (domain/revision-diff.ts). Restoring a version asks first, then saves it again as the
 * current version (itself a new revision).
 *
 * The query: `?from=A&to=B` compares two versions (shown older first); `?rev=N` compares N with the current
 * version, or the current one with the save before it; nothing compares the last two saves. `&restore=N` is
 * the confirmation step of a browser without JavaScript. A revision of another item is a 404; a parameter that
 * is not a revision number is answered 400 with the usual comparison and a message saying so.
 */

const notFound = () => data(null, { status: 404, statusText: "Not Found" });

function typeOf(request: Request): ContentTypeDefinition {
  const def = contentTypeOfUrl(request.url);
  if (!def) throw notFound();
  return def;
}

const positive = (value: unknown): number | null => (typeof value === "string" ? parseId(value) : null);

type Kind = "save" | "autosave";
const kindOf = (kind: string | null | undefined): Kind => (kind === "autosave" ? "autosave" : "save");

/** The publishing section's fields, compared with the type's own (their kinds as domain/revision-diff.ts shows them). */
const PUBLISHING = [
  { name: "status", kind: "status", label: "newsroom.ui.status" },
  { name: "publish_date", kind: "datetime", label: "newsroom.ui.publishDate" },
  { name: "page_slug", kind: "slug", label: "newsroom.f.slug" },
] as const;

/** What differs between two versions' data, field by field, in the editor's order. */
async function differences(
  db: Database,
  def: ContentTypeDefinition,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Promise<FieldDifference[]> {
  const fields = [
    ...def.fields.map((f) => ({ name: f.name, kind: f.kind as string, label: f.label, optionLabels: f.optionLabels, references: f.references })),
    ...PUBLISHING,
  ];
  // A field an autosave did not record (its form did not send it) is not compared: it was not emptied.
  const recorded = fields.filter((f) => f.name in before && f.name in after);
  const changed = new Set(changedFields(recorded, before, after));
  const shown = fields.filter((f) => changed.has(f.name));
  // The rows a changed category or reference field names, by id: shown by name, not by number.
  const options = await rowOptionsOf(db, def.type, shown, { everyCategory: true });
  const namesOf = (name: string) => new Map<number, CategoryName>((options[name] ?? []).map((o) => [o.id, o]));
  return shown.map((f): FieldDifference => {
    if ((LONG_TEXT_KINDS as readonly string[]).includes(f.kind))
      return { name: f.name, label: f.label, type: "text", diff: diffLongText(f.kind, before[f.name], after[f.name]) };
    return {
      name: f.name,
      label: f.label,
      type: "value",
      before: displayValue(f, before[f.name], namesOf(f.name)),
      after: displayValue(f, after[f.name], namesOf(f.name)),
    };
  });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const def = typeOf(request);
  await requirePermission(request, def.permissions.write);
  const id = positive(params.id);
  if (id === null) throw notFound();
  const db = await getDb();
  const item = await getForStaff(db, def.type, id);
  if (!item) throw notFound();
  const listed = (await listRevisions(db, def.type, id)).map((r) => ({ ...r, kind: kindOf(r.kind) }));
  const saves = listed.filter((r) => r.kind === "save");
  const autosaves = listed.filter((r) => r.kind === "autosave");
  const currentId = saves[0]?.id ?? null;

  // Each parameter, when present, is a revision number; anything else is refused (400) and left out.
  const query = new URL(request.url).searchParams;
  const refused: string[] = [];
  const param = (name: string) => {
    const raw = query.get(name);
    if (raw === null || raw === "") return null;
    const n = positive(raw);
    if (n === null) refused.push(name);
    return n;
  };
  const [rev, from, to, restore] = [param("rev"), param("from"), param("to"), param("restore")];

  // A revision of this item (any, also one older than the listed ones), or a 404.
  const revisionOf = async (revId: number) => {
    const found = await getRevision(db, def.type, id, revId);
    if (!found) throw notFound();
    return found;
  };

  let pair: [number, number] | null = null;
  const chosen = from ?? rev ?? to;
  if (from !== null && to !== null) pair = [from, to];
  else if (chosen !== null) {
    if (currentId !== null && chosen !== currentId) pair = [chosen, currentId];
    else {
      const previous = saves[saves.findIndex((s) => s.id === chosen) + 1];
      pair = previous ? [previous.id, chosen] : [chosen, chosen];
    }
  } else if (saves.length >= 2) pair = [saves[1].id, saves[0].id];
  else if (currentId !== null && autosaves.length) pair = [currentId, autosaves[0].id];

  let compare = null;
  if (pair) {
    const loaded = await Promise.all(pair.map(revisionOf));
    // Older first, whichever way the two were given.
    const [older, newer] = loaded.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id);
    const head = (r: typeof older) => ({
      id: r.id,
      kind: kindOf(r.kind),
      created_at: r.created_at,
      author_name: r.author_name,
      status: (EDITOR_STATUSES as readonly string[]).includes(String(r.data.status)) ? (r.data.status as EditorStatus) : ("draft" as EditorStatus),
      current: r.id === currentId,
    });
    compare = {
      before: head(older),
      after: head(newer),
      same: older.id === newer.id,
      fields: older.id === newer.id ? [] : await differences(db, def, older.data, newer.data),
    };
  }
  const confirming = restore === null ? null : await revisionOf(restore);

  return data(
    {
      segment: def.segment,
      item: { id: item.id, title: item.title },
      saves,
      autosaves,
      currentId,
      compare,
      confirm: confirming && { id: confirming.id, kind: kindOf(confirming.kind), created_at: confirming.created_at, author_name: confirming.author_name },
      refused,
      // The item's notes (decision 0139): they belong to the item, so restoring a version keeps them.
      notes: await listNotes(db, def.type, id),
    },
    { status: refused.length ? 400 : 200, headers: { "Cache-Control": "private, no-store" } },
  );
}

/** The answer to a refused restore (domain/form-answer.ts); a restore that went through goes to the editor. */
type RestoreAnswer = FormAnswer<never, "BODY_TOO_LARGE" | "BAD_REQUEST" | "NOT_FOUND" | "INVALID" | "PUBLISH_PERMISSION" | "FAILED">;

/** What the page says for each code (translation keys). */
const RESTORE_FAILURES: Record<string, string> = {
  BODY_TOO_LARGE: "newsroom.ui.badRequest",
  BAD_REQUEST: "newsroom.ui.badRequest",
  NOT_FOUND: "newsroom.ui.notFound",
  INVALID: "newsroom.ui.restoreInvalid",
  FAILED: "newsroom.ui.saveFailedDetail",
  // Restoring a published version without content.publish (decision 0138).
  PUBLISH_PERMISSION: "workflow.refused",
};

export async function action({ request, params }: Route.ActionArgs) {
  const def = typeOf(request);
  const user = await requirePermission(request, def.permissions.write);
  // Ownership (issue 40): restoring another person's item needs content.others.
  const itemId = positive(params.id);
  if (itemId !== null) await assertMayEdit(await getDb(), user, def.type, itemId, "page");
  // A restore is a few hidden fields: the account forms' limit is plenty.
  return formAction<RestoreAnswer>(request, { limit: "account" }, async (form) => {
    const id = positive(params.id);
    const revId = positive(form.get("rev"));
    if (form.get("intent") !== "restore" || id === null || revId === null) throw new BadRequestError("BAD_REQUEST", "Not a restore of a revision.");
    try {
      await restoreRevision(await getDb(), def.type, id, revId, { id: user.id, email: user.email, profile: user.profile });
    } catch (error) {
      // An old version may not pass today's rules (a category since removed, a stricter field): 400 here.
      if (error instanceof ValidationError) throw new BadRequestError("INVALID", error.message, { cause: error });
      throw failedWhile("restore failed", error, { type: def.type, id, revId });
    }
    return redirect(`/admin/${def.segment}/${id}`, { headers: { "Set-Cookie": flashCookie({ kind: "restored", type: def.type }) } });
  });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "newsroom.ui.revisions");

export default function RevisionsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const def = contentTypeBySegment(loaderData.segment)!;
  const { item, saves, autosaves, currentId, compare, confirm, refused, notes } = loaderData;
  const [restoring, setRestoring] = useState<RestoreTarget | null>(null);
  const { targetOf } = useRevisionLabels();
  const editHref = `/admin/${def.segment}/${item.id}`;
  const code = formErrorOf(actionData);
  const restoreFailure = code ? (RESTORE_FAILURES[code] ?? RESTORE_FAILURES.FAILED) : null;
  // A refused restore answers here: the dialog closes so its message shows (state adjusted while rendering).
  const [answered, setAnswered] = useState(actionData);
  if (answered !== actionData) {
    setAnswered(actionData);
    setRestoring(null);
  }
  const here = `?${compare ? `from=${compare.before.id}&to=${compare.after.id}` : ""}`;

  return (
    <section className="space-y-5" data-testid="content-revisions">
      <div className="space-y-2">
        <Breadcrumbs
          className="text-sm text-ink-soft"
          steps={[
            <Link key="list" to={`/admin/${def.segment}`} className="hover:underline">
              {t(def.labels.title)}
            </Link>,
            <Link key="item" to={editHref} className="hover:underline" data-testid="back-to-editor">
              {item.title}
            </Link>,
          ]}
        />
        <h1 className="text-2xl font-bold">{t("newsroom.ui.revisionsTitle", { title: item.title })}</h1>
      </div>
      {refused.length > 0 && (
        <Notice tone="error" testId="bad-query">
          {t("newsroom.revisions.badQuery")}
        </Notice>
      )}
      {restoreFailure && (
        <Notice tone="error" testId="restore-failure">
          {t(restoreFailure)}
        </Notice>
      )}
      {confirm && <RestoreStep target={targetOf(confirm)} back={here} />}
      {/* grid-cols-1 (minmax(0, 1fr)) on a phone: an auto track takes the width of the longest one-line title in the versions' list. */}
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <CompareView compare={compare} here={here} onRestore={setRestoring} saves={saves} autosaves={autosaves} currentId={currentId} />
        <RevisionsNav saves={saves} autosaves={autosaves} currentId={currentId} compare={compare} />
      </div>
      <section aria-labelledby="notes-heading" className="space-y-2" data-testid="revision-notes">
        <h2 id="notes-heading" className="font-bold">
          {t("itemNotes.revisionsTitle")}
        </h2>
        <p className="text-xs text-ink-soft">{t("itemNotes.hint")}</p>
        <NoteThread notes={notes} />
      </section>
      <RestoreDialog target={restoring} onClose={() => setRestoring(null)} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
