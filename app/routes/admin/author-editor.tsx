import { data, Form, Link, redirect, useNavigation } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/author-editor";
import { AdminError } from "#app/components/admin/guard.tsx";
import { AccountField, AuthorBios, AuthorNames, LinksField, PhotoField, primary, secondary } from "#app/components/admin/authors/author-fields.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { checkAuthorInput, type AuthorLink, type AuthorProfile } from "#domain/authors.ts";
import { getDb, type Database } from "#server/db/client.server.ts";
import { requirePermission, userCan, type SessionUser } from "#server/auth/session.server.ts";
import { assertMayEditAuthor } from "#server/content/ownership.server.ts";
import { AuthorInUseError, createAuthor, deleteAuthor, getAuthor, linkableAccounts, updateAuthor } from "#server/content/authors.server.ts";
import { AppError } from "#server/http/errors.server.ts";
import { formAction } from "#server/http/form-action.server.ts";
import { parseId } from "#domain/ids.ts";

/**
 * One author profile's editor (issue 29, decision 0121): names in three languages, the slug of its public page,
 * a photo from the media library, biographies, links, and the account whose default byline it is. Anyone who
 * writes content manages profiles (a guest writer needs one); linking an account needs users.manage, deleting
 * a profile content.delete, and a profile that items still name is not deleted.
 */
const idOf = (params: { id?: string }) => (params.id === undefined ? null : (parseId(params.id) ?? NaN));

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "content.write");
  const id = idOf(params);
  const db = await getDb();
  const author = id === null ? null : Number.isNaN(id) ? null : await getAuthor(db, id);
  if (id !== null && !author) throw data({ reason: "not-found" }, { status: 404 });
  // Ownership (issue 40): without content.others only one's own profile (the one linked to the account).
  if (author) await assertMayEditAuthor(db, user, author.id, "page");
  const canLink = userCan(user, "users.manage");
  return data(
    {
      author,
      accounts: canLink
        ? (await linkableAccounts(db)).map((a) => ({ id: a.id, email: a.email, name: a.name, taken: a.author_id !== null && a.author_id !== id }))
        : [],
      canLink,
      canDelete: userCan(user, "content.delete"),
      saved: new URL(request.url).searchParams.get("saved") === "1",
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type Answer = { ok: false; fields?: Record<string, string>; message: string; values?: Record<string, string>; links?: AuthorLink[]; at: number };

const TEXT_FIELDS = ["name", "name_fr", "name_en", "slug", "photo_url", "bio", "bio_fr", "bio_en", "user_id"] as const;

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requirePermission(request, "content.write");
  const id = idOf(params);
  if (Number.isNaN(id)) return refuse(404, "authors.notFound");
  // Ownership (issue 40): an existing profile is changed or deleted by its owner (the linked account) or with content.others.
  if (id !== null) await assertMayEditAuthor(await getDb(), user, id, "page");
  // A body that is not a form, or too large, is a 4xx of the one error model, never a 500.
  const unreadable = () => ({ message: "newsroom.ui.badRequest", at: Date.now() });
  return formAction<Answer>(request, { limit: "form", echo: unreadable }, async (form) => {
    const db = await getDb();
    return form.get("intent") === "delete" ? remove(user, id, db) : save(user, id, db, form);
  });
}

const refuse = (status: number, message: string, extra: Partial<Answer> = {}) => data<Answer>({ ok: false, message, at: Date.now(), ...extra }, { status });

/** Deletes the profile (content.delete); one that items still name is refused with their count. */
async function remove(user: SessionUser, id: number | null, db: Database) {
  if (!userCan(user, "content.delete")) return refuse(403, "admin.permissionNeeded");
  if (id === null) return refuse(404, "authors.notFound");
  try {
    await deleteAuthor(db, id);
  } catch (error) {
    if (error instanceof AuthorInUseError) return refuse(409, "authors.inUse", { fields: { count: String(error.itemCount) } });
    if (error instanceof AppError) return refuse(error.status, error.status === 404 ? "authors.notFound" : error.message);
    throw error;
  }
  return redirect("/admin/authors?done=deleted");
}

/** Creates or updates the profile; a refusal gives back what was typed with the fields' messages. */
async function save(user: SessionUser, id: number | null, db: Database, form: FormData) {
  const raw: Record<string, unknown> = {};
  for (const key of TEXT_FIELDS) {
    const value = form.get(key);
    if (typeof value === "string") raw[key] = value;
  }
  const labels = form.getAll("link_label").map(String);
  const urls = form.getAll("link_url").map(String);
  raw.links = labels.map((label, i) => ({ label, url: urls[i] ?? "" }));
  const values = Object.fromEntries(TEXT_FIELDS.map((k) => [k, typeof raw[k] === "string" ? (raw[k] as string) : ""]));
  const echo = { values, links: raw.links as AuthorLink[] };
  const checked = checkAuthorInput(raw, { partial: id !== null });
  if (!checked.ok) return refuse(400, "authors.checkFields", { fields: checked.fields, ...echo });
  if (checked.value.user_id !== undefined && !userCan(user, "users.manage")) {
    const current = id === null ? null : await getAuthor(db, id);
    if ((current?.user_id ?? null) !== checked.value.user_id) return refuse(403, "authors.accountNeedsPermission", echo);
  }
  try {
    const saved = id === null ? await createAuthor(db, checked.value) : await updateAuthor(db, id, checked.value);
    return redirect(`/admin/authors/${saved.id}?saved=1`);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return refuse(error.status === 422 ? 400 : error.status, error.status === 404 ? "authors.notFound" : "authors.checkFields", {
      fields: error.fields,
      ...echo,
    });
  }
}

export const meta: Route.MetaFunction = ({ data: loaded, matches }) => authMeta(matches, loaded?.author ? "authors.editTitle" : "authors.newTitle");

export default function AuthorEditor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { author, accounts, canLink, canDelete, saved } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const answer = actionData;
  const fields = answer?.fields;
  const typed = answer?.values;
  const value = (key: keyof AuthorProfile) => {
    const saved = author?.[key];
    return typed?.[key] ?? (typeof saved === "string" ? saved : "");
  };
  const inUse = answer?.message === "authors.inUse";
  return (
    <section data-testid="author-editor" className="max-w-3xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{t(author ? "authors.editTitle" : "authors.newTitle")}</h1>
        <div className="flex gap-3 text-sm">
          {author && (
            <a href={author.url} className="font-bold text-desert-700 hover:underline" target="_blank" rel="noreferrer" data-testid="author-public-link">
              {t("authors.viewPage")}
            </a>
          )}
          <Link to="/admin/authors" className="font-bold hover:underline">
            {t("authors.backToList")}
          </Link>
        </div>
      </div>
      {saved && !answer && (
        <p role="status" className="rounded-md border border-palm-600 bg-emerald-50 px-4 py-2 text-sm" data-testid="author-result" data-ok="true">
          {t("authors.saved")}
        </p>
      )}
      {answer && (
        <p role="alert" className="rounded-md border border-red-600 bg-red-50 px-4 py-2 text-sm text-red-900" data-testid="author-result" data-ok="false">
          {t(answer.message, inUse ? { n: Number(fields?.count ?? 0) } : undefined)}
        </p>
      )}
      <Form method="post" className="space-y-5 rounded-lg border border-sand-200 bg-white p-4 shadow-sm sm:p-6" data-testid="author-form" noValidate>
        <input type="hidden" name="intent" value="save" />
        <AuthorNames value={value} fields={fields} nameError={inUse ? undefined : fields?.name} />
        <PhotoField value={value("photo_url")} error={fields?.photo_url} />
        <AuthorBios value={value} fields={fields} />
        <LinksField links={answer?.links ?? author?.links ?? []} fields={fields} />
        <AccountField canLink={canLink} accounts={accounts} value={value} error={fields?.user_id} linked={author?.user_email} />
        <button type="submit" className={primary} disabled={busy} data-testid="author-save">
          {t("admin.save")}
        </button>
      </Form>
      {author && canDelete && (
        <Form method="post" className="rounded-lg border border-red-200 bg-white p-4" data-testid="author-delete-form">
          <input type="hidden" name="intent" value="delete" />
          <p className="mb-3 text-sm text-ink-soft">{t("authors.deleteHint")}</p>
          <button type="submit" className={`${secondary} text-red-700`} data-testid="author-delete">
            {t("authors.delete")}
          </button>
        </Form>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
