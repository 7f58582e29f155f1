import { useEffect, useState } from "react";
import { data, useFetcher, useSearchParams } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { z } from "zod/mini";
import type { Route } from "./+types/tags";
import { DeleteDialog, MergeDialog, RenameDialog } from "#app/components/admin/tags/tag-dialogs.tsx";
import { TagRow } from "#app/components/admin/tags/tag-row.tsx";
import type { TagsAnswer, TagsDialog, TagsIntent } from "#app/components/admin/tags/tags-answer.ts";
import { TagsPages, TagsSearch, TagsSummary } from "#app/components/admin/tags/tags-toolbar.tsx";
import { useToast } from "#app/components/ui/toast.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { asText } from "#domain/content-form.ts";
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

// 0 names no tag (a 404 of the tag's own), where NaN reached the database as a 500; a merge refuses it (400).
const idOf = (value: FormDataEntryValue | null) => parseId(value) ?? 0;

/** Renames, merges or deletes, as the JSON API does; refusals answer the form with the fields' messages. */
export async function action({ request }: Route.ActionArgs) {
  // Every action of the screen renames, merges or deletes: tags.manage (issue 40).
  await requirePermission(request, "tags.manage");
  return formAction<TagsAnswer>(request, { limit: "account" }, async (form) => {
    const intent = asText(form.get("intent")) as TagsIntent;
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

export default function TagsScreen({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { tags, total, page, perPage, q, canManage } = loaderData;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const [selected, setSelected] = useState<Map<number, TagSummary>>(new Map());
  const [dialog, setDialog] = useState<TagsDialog>(null);
  const fetcher = useFetcher<TagsAnswer>({ key: "tags-change" });
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;

  // A change went through: the dialog closes and the selection is forgotten (the list is loaded again by itself).
  const settled = answer?.ok === true;
  const selection = settled ? new Map<number, TagSummary>() : selected;
  const shown = settled ? null : dialog;
  useChangeToast(answer);

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
  const open = (next: TagsDialog) => {
    fetcher.reset();
    setDialog(next);
  };

  return (
    <section className="space-y-5" data-testid="admin-tags">
      <div>
        <h1 className="text-2xl font-bold">{t("tags.title")}</h1>
        <p className="mt-1 text-ink-soft">{t("tags.intro")}</p>
      </div>

      <TagsSearch q={q} />
      <TagsSummary total={total} canManage={canManage} selected={selection.size} onMerge={() => open({ kind: "merge", tags: [...selection.values()] })} />

      {tags.length === 0 ? (
        <p className="rounded-lg border border-dashed border-sand-300 bg-white px-4 py-10 text-center text-ink-soft" data-testid="tags-empty">
          {q ? t("tags.emptySearch") : t("tags.empty")}
        </p>
      ) : (
        <ul className="divide-y divide-sand-200 rounded-lg border border-sand-200 bg-white shadow-sm" data-testid="tags-list">
          {tags.map((tag) => (
            <TagRow key={tag.id} tag={tag} canManage={canManage} selected={selection.has(tag.id)} onSelect={toggle} onOpen={open} />
          ))}
        </ul>
      )}

      <TagsPages page={page} pages={pages} href={href} />

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

/** A change that went through, or failed for a reason no field shows, is said in a toast. */
function useChangeToast(answer: TagsAnswer | undefined) {
  const { t } = useTranslation();
  const toast = useToast();
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
}
