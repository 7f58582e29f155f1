import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useFetcher, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { z } from "zod/mini";
import type { Route } from "./+types/tags";
import { CloseDialogButton, DIALOG_WIDTH, ModalDialog } from "#app/components/admin/modal-dialog.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { useCount } from "#app/lib/i18n.ts";
import { asText } from "#domain/content-form.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { pageParam } from "#domain/query.ts";
import { TAG_NAME_MAX, TagMerge, TagPatch, TAGS_SCREEN_PAGE_SIZE, tagFieldErrors, type TagSummary } from "#domain/tags.ts";
import { requirePermission, userCan } from "#server/auth/session.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { BadRequestError, ValidationError } from "#server/http/errors.server.ts";
import { formAction, formSuccess } from "#server/http/form-action.server.ts";
import { deleteTag, listTags, mergeTags, renameTag } from "#server/content/tags.server.ts";
import { parseId } from "#domain/ids.ts";

/**
 * The tags screen (issue 29, decision 0122): every tag with how many items it is on, searched the way the form's
 * tag input matches (Arabic-aware), renamed (name and slug; a name spelt as another tag's merges the two), merged
 * (select tags, then the one that stays) and deleted after the spec's question «تأكيد الحذف» with the count of
 * items it is removed from. The same changes as the JSON API (/api/admin/tags…), through the same domain functions.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "content.write");
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, TAG_NAME_MAX);
  const page = pageParam(url, "page", 100_000);
  const result = await listTags(await getDb(), { q: q || undefined, page, perPage: TAGS_SCREEN_PAGE_SIZE });
  // Writers see the tags (they make new ones by typing them in a form); renaming, merging and deleting need tags.manage (issue 40).
  return data({ ...result, q, canManage: userCan(user, "tags.manage") }, { headers: { "Cache-Control": "private, no-store" } });
}

type Intent = "rename" | "merge" | "delete";
type TagsAnswer = FormAnswer<string, "BODY_TOO_LARGE" | "BAD_REQUEST" | "INVALID" | "NOT_FOUND" | "CONFLICT" | "SLUG_TAKEN" | "REQUIRED" | "FAILED"> & {
  intent?: Intent;
  /** The tag that remains (rename, merge). */
  name?: string;
};

// 0 names no tag (a 404 of the tag's own), where NaN reached the database as a 500; a merge refuses it (400).
const idOf = (value: FormDataEntryValue | null) => parseId(value) ?? 0;

/** Renames, merges or deletes, as the JSON API does; refusals answer the form with the fields' messages. */
export async function action({ request }: Route.ActionArgs) {
  // Every action of the screen renames, merges or deletes: tags.manage (issue 40).
  await requirePermission(request, "tags.manage");
  return formAction<TagsAnswer>(request, { limit: "account" }, async (form) => {
    const intent = asText(form.get("intent")) as Intent;
    const db = await getDb();
    const refuse = (error: z.core.$ZodError) => new ValidationError("tags.invalid", tagFieldErrors(error), { status: 400, code: "INVALID" });
    if (intent === "rename") {
      const patch: Record<string, string> = { name: asText(form.get("name")) };
      if (asText(form.get("slug")).trim()) patch.slug = asText(form.get("slug"));
      const parsed = z.safeParse(TagPatch, patch);
      if (!parsed.success) throw refuse(parsed.error);
      const { tag } = await renameTag(db, idOf(form.get("id")), parsed.data);
      return formSuccess<TagsAnswer>({ intent, name: tag.name });
    }
    if (intent === "merge") {
      const parsed = z.safeParse(TagMerge, { into: idOf(form.get("into")), from: form.getAll("from").map(idOf) });
      if (!parsed.success) throw refuse(parsed.error);
      const { tag } = await mergeTags(db, parsed.data);
      return formSuccess<TagsAnswer>({ intent, name: tag.name });
    }
    if (intent === "delete") {
      await deleteTag(db, idOf(form.get("id")));
      return formSuccess<TagsAnswer>({ intent });
    }
    throw new BadRequestError("BAD_REQUEST", "Not a change of tags.");
  });
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "tags.title");

type Dialog = { kind: "rename" | "delete"; tag: TagSummary } | { kind: "merge"; tags: TagSummary[] } | null;

const inputClass =
  "h-11 w-full rounded-md border border-sand-300 bg-white px-3 focus:border-desert-500 focus:ring-2 focus:ring-desert-500/30 focus:outline-none";
const smallButton = "inline-flex h-9 items-center rounded-md border border-sand-300 bg-white px-3 text-sm font-bold hover:bg-sand-100";

export default function TagsScreen({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const count = useCount();
  const toast = useToast();
  const [params] = useSearchParams();
  const { tags, total, page, perPage, q, canManage } = loaderData;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const [selected, setSelected] = useState<Map<number, TagSummary>>(new Map());
  const [dialog, setDialog] = useState<Dialog>(null);
  const fetcher = useFetcher<TagsAnswer>({ key: "tags-change" });
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;

  // A change went through: the dialog closes and the selection is forgotten (the list is loaded again by itself).
  const settled = answer?.ok === true;
  const selection = settled ? new Map<number, TagSummary>() : selected;
  const shown = settled ? null : dialog;
  // And the page says so.
  useEffect(() => {
    if (!answer) return;
    if (answer.ok) {
      const description =
        answer.intent === "merge" ? t("tags.mergedInto", { name: answer.name }) : answer.intent === "delete" ? t("tags.deleted") : t("tags.renamed");
      toast({ title: description, variant: "success" });
    } else if (!answer.fields) {
      toast({ title: t("tags.failed"), description: answer.formError === "NOT_FOUND" ? t("tags.notFound") : undefined, variant: "destructive" });
    }
  }, [answer, t, toast]);

  const href = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === "") next.delete(name);
      else next.set(name, value);
    }
    const query = next.toString();
    return query ? `?${query}` : "?";
  };
  const toggle = (tag: TagSummary, on: boolean) => {
    const next = new Map(selection);
    if (on) next.set(tag.id, tag);
    else next.delete(tag.id);
    if (settled) fetcher.reset();
    setSelected(next);
  };
  const open = (next: Dialog) => {
    fetcher.reset();
    setDialog(next);
  };

  return (
    <section className="space-y-5" data-testid="admin-tags">
      <div>
        <h1 className="text-2xl font-bold">{t("tags.title")}</h1>
        <p className="mt-1 text-ink-soft">{t("tags.intro")}</p>
      </div>

      <Form
        method="get"
        role="search"
        className="flex flex-wrap items-end gap-2 rounded-lg border border-sand-200 bg-white p-4 shadow-sm"
        data-testid="tags-search"
      >
        <label className="min-w-0 flex-1 basis-60">
          <span className="mb-1 block text-sm font-bold">{t("tags.searchLabel")}</span>
          <input
            type="search"
            name="q"
            defaultValue={q}
            key={q}
            maxLength={TAG_NAME_MAX}
            placeholder={t("tags.searchPlaceholder")}
            dir="auto"
            className={inputClass}
            data-testid="tags-q"
          />
        </label>
        <button type="submit" className="h-11 rounded-md bg-desert-600 px-5 font-bold text-white hover:bg-desert-700" data-testid="tags-search-submit">
          {t("tags.search")}
        </button>
      </Form>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-ink-soft" role="status" data-testid="tags-total">
          {t("tags.total", { total })}
        </p>
        {canManage && (
          <div className="flex flex-wrap items-center gap-3">
            <span className="text-sm text-ink-soft" data-testid="tags-selected">
              {t("tags.selected", { total: selection.size })}
            </span>
            <button
              type="button"
              className="inline-flex h-10 items-center rounded-md bg-desert-600 px-4 text-sm font-bold text-white hover:bg-desert-700 disabled:cursor-not-allowed disabled:opacity-60"
              disabled={selection.size < 2}
              aria-describedby="tags-merge-needs"
              onClick={() => open({ kind: "merge", tags: [...selection.values()] })}
              data-testid="tags-merge"
            >
              {t("tags.merge")}
            </button>
            <span id="tags-merge-needs" className="sr-only">
              {t("tags.mergeNeedsTwo")}
            </span>
          </div>
        )}
      </div>

      {tags.length === 0 ? (
        <p className="rounded-lg border border-dashed border-sand-300 bg-white px-4 py-10 text-center text-ink-soft" data-testid="tags-empty">
          {q ? t("tags.emptySearch") : t("tags.empty")}
        </p>
      ) : (
        <ul className="divide-y divide-sand-200 rounded-lg border border-sand-200 bg-white shadow-sm" data-testid="tags-list">
          {tags.map((tag) => (
            <li key={tag.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" data-testid="tag-row" data-id={tag.id} data-slug={tag.slug}>
              {canManage && (
                <input
                  type="checkbox"
                  id={`tag-select-${tag.id}`}
                  className="h-5 w-5 shrink-0"
                  checked={selection.has(tag.id)}
                  onChange={(e) => toggle(tag, e.currentTarget.checked)}
                  aria-label={t("tags.select", { name: tag.name })}
                  data-testid="tag-select"
                />
              )}
              <div className="min-w-0 flex-1 basis-40">
                <span className="block font-bold break-words" dir="auto" data-testid="tag-name">
                  {tag.name}
                </span>
                <span className="block truncate text-xs text-ink-soft" dir="ltr" data-testid="tag-slug">
                  <bdi>{decodeURIComponent(tag.url)}</bdi>
                </span>
              </div>
              <span className="text-sm text-ink-soft" data-testid="tag-count">
                {count("tags.items", tag.count)}
              </span>
              <div className="flex flex-wrap gap-2">
                <Link to={tag.url} className={smallButton} aria-label={t("tags.viewOf", { name: tag.name })} data-testid="tag-view">
                  {t("tags.view")}
                </Link>
                {canManage && (
                  <>
                    <button
                      type="button"
                      className={smallButton}
                      aria-label={t("tags.renameOf", { name: tag.name })}
                      onClick={() => open({ kind: "rename", tag })}
                      data-testid="tag-rename"
                    >
                      {t("tags.rename")}
                    </button>
                    <button
                      type="button"
                      className={`${smallButton} text-red-700`}
                      aria-label={t("tags.deleteOf", { name: tag.name })}
                      onClick={() => open({ kind: "delete", tag })}
                      data-testid="tag-delete"
                    >
                      {t("tags.delete")}
                    </button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}

      {pages > 1 && (
        <nav aria-label={t("tags.pagination")} className="flex items-center justify-between gap-3" data-testid="tags-pages">
          {page > 1 ? (
            <Link to={href({ page: page - 1 > 1 ? String(page - 1) : null })} rel="prev" className={smallButton}>
              {t("tags.previous")}
            </Link>
          ) : (
            <span />
          )}
          <span className="text-sm text-ink-soft">{t("tags.pageOf", { page })}</span>
          {page < pages ? (
            <Link to={href({ page: String(page + 1) })} rel="next" className={smallButton}>
              {t("tags.next")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}

      <RenameDialog dialog={shown?.kind === "rename" ? shown.tag : null} onClose={() => setDialog(null)} fetcher={fetcher} />
      <MergeDialog
        key={shown?.kind === "merge" ? shown.tags.map((tag) => tag.id).join(",") : "none"}
        tags={shown?.kind === "merge" ? shown.tags : null}
        onClose={() => setDialog(null)}
        fetcher={fetcher}
      />
      <DeleteDialog tag={shown?.kind === "delete" ? shown.tag : null} onClose={() => setDialog(null)} fetcher={fetcher} />
    </section>
  );
}

type Fetcher = ReturnType<typeof useFetcher<TagsAnswer>>;

/** The message under a field, from the action's refusal (a translation key). */
function FieldError({ id, message }: { id: string; message?: string }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700" data-testid={id}>
      {t(message)}
    </p>
  );
}

function Buttons({ fetcher, label, testId, danger }: { fetcher: Fetcher; label: string; testId: string; danger?: boolean }) {
  const busy = fetcher.state !== "idle";
  return (
    <div className="mt-5 flex flex-wrap justify-end gap-2">
      <CloseDialogButton testId={`${testId}-cancel`} />
      <button
        type="submit"
        disabled={busy}
        aria-busy={busy || undefined}
        className={`rounded-md px-4 py-2 text-sm font-bold text-white disabled:opacity-70 ${danger ? "bg-red-700 hover:bg-red-800" : "bg-desert-600 hover:bg-desert-700"}`}
        data-testid={testId}
      >
        {label}
      </button>
    </div>
  );
}

function RenameDialog({ dialog: tag, onClose, fetcher }: { dialog: TagSummary | null; onClose: () => void; fetcher: Fetcher }) {
  const { t } = useTranslation();
  const name = useRef<HTMLInputElement>(null);
  const fields = fetcher.data && !fetcher.data.ok && fetcher.data.intent !== "delete" ? fetcher.data.fields : undefined;
  return (
    <ModalDialog
      open={tag !== null}
      onClose={onClose}
      labelledBy="tag-rename-title"
      describedBy="tag-rename-hint"
      width={DIALOG_WIDTH.medium}
      testId="tag-rename-dialog"
      initialFocus={name}
    >
      {tag && (
        <fetcher.Form method="post" key={tag.id}>
          <h2 id="tag-rename-title" className="text-lg font-bold">
            {t("tags.renameTitle")}
          </h2>
          <input type="hidden" name="intent" value="rename" />
          <input type="hidden" name="id" value={tag.id} />
          <label className="mt-4 block">
            <span className="mb-1 block text-sm font-bold">{t("tags.name")}</span>
            <input
              ref={name}
              name="name"
              defaultValue={tag.name}
              maxLength={TAG_NAME_MAX}
              required
              dir="auto"
              className={inputClass}
              aria-invalid={fields?.name ? true : undefined}
              aria-describedby={fields?.name ? "tag-name-error" : undefined}
              data-testid="tag-rename-name"
            />
          </label>
          <FieldError id="tag-name-error" message={fields?.name} />
          <label className="mt-4 block">
            <span className="mb-1 block text-sm font-bold">{t("tags.slug")}</span>
            <input
              name="slug"
              defaultValue={tag.slug}
              dir="auto"
              className={inputClass}
              aria-invalid={fields?.slug ? true : undefined}
              aria-describedby={fields?.slug ? "tag-slug-error" : undefined}
              data-testid="tag-rename-slug"
            />
          </label>
          <FieldError id="tag-slug-error" message={fields?.slug} />
          <p id="tag-rename-hint" className="mt-3 text-sm text-ink-soft">
            {t("tags.renameHint")}
          </p>
          <Buttons fetcher={fetcher} label={t("tags.save")} testId="tag-rename-save" />
        </fetcher.Form>
      )}
    </ModalDialog>
  );
}

function MergeDialog({ tags, onClose, fetcher }: { tags: TagSummary[] | null; onClose: () => void; fetcher: Fetcher }) {
  const { t } = useTranslation();
  const count = useCount();
  // The most used tag stays unless the editor picks another.
  const first = tags?.length ? [...tags].sort((a, b) => b.count - a.count)[0].id : 0;
  const [into, setInto] = useState(first);
  return (
    <ModalDialog
      open={tags !== null}
      onClose={onClose}
      labelledBy="tag-merge-title"
      describedBy="tag-merge-text"
      width={DIALOG_WIDTH.medium}
      testId="tag-merge-dialog"
    >
      {tags && (
        <fetcher.Form method="post">
          <h2 id="tag-merge-title" className="text-lg font-bold">
            {t("tags.mergeTitle")}
          </h2>
          <p id="tag-merge-text" className="mt-2 text-sm text-ink-soft">
            {t("tags.mergeText")}
          </p>
          <input type="hidden" name="intent" value="merge" />
          {tags
            .filter((tag) => tag.id !== into)
            .map((tag) => (
              <input key={tag.id} type="hidden" name="from" value={tag.id} />
            ))}
          <fieldset className="mt-4">
            <legend className="mb-2 text-sm font-bold">{t("tags.mergeInto")}</legend>
            <ul className="space-y-2">
              {tags.map((tag) => (
                <li key={tag.id}>
                  <label className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="into"
                      value={tag.id}
                      checked={into === tag.id}
                      onChange={() => setInto(tag.id)}
                      className="h-5 w-5"
                      data-testid="tag-merge-into"
                    />
                    <span className="font-bold" dir="auto">
                      {tag.name}
                    </span>
                    <span className="text-sm text-ink-soft">{count("tags.items", tag.count)}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <Buttons fetcher={fetcher} label={t("tags.mergeConfirm")} testId="tag-merge-confirm" />
        </fetcher.Form>
      )}
    </ModalDialog>
  );
}

function DeleteDialog({ tag, onClose, fetcher }: { tag: TagSummary | null; onClose: () => void; fetcher: Fetcher }) {
  const { t } = useTranslation();
  const count = useCount();
  return (
    <ModalDialog
      open={tag !== null}
      onClose={onClose}
      labelledBy="tag-delete-title"
      describedBy="tag-delete-text"
      testId="tag-delete-dialog"
      width={DIALOG_WIDTH.narrow}
    >
      {tag && (
        <fetcher.Form method="post">
          <h2 id="tag-delete-title" className="text-lg font-bold">
            {t("admin.confirmDeleteTitle")}
          </h2>
          <p id="tag-delete-text" className="mt-2 text-sm text-ink-soft" data-testid="tag-delete-text">
            {t("tags.deleteText", { items: count("tags.items", tag.count) })}
          </p>
          <p className="mt-3 rounded-md bg-sand-50 px-3 py-2 text-sm font-bold" dir="auto" data-testid="tag-delete-name">
            {tag.name}
          </p>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={tag.id} />
          <Buttons fetcher={fetcher} label={t("tags.delete")} testId="tag-delete-confirm" danger />
        </fetcher.Form>
      )}
    </ModalDialog>
  );
}
