import { useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/author-editor";
import { AdminError } from "#app/components/admin/guard.tsx";
import { LibraryPickButton } from "#app/components/admin/library-picker.tsx";
import { InputField, TextAreaField, Field } from "#app/components/forms/field.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import {
  AUTHOR_BIO_MAX,
  AUTHOR_LINK_LABEL_MAX,
  AUTHOR_LINKS_MAX,
  AUTHOR_NAME_MAX,
  AUTHOR_URL_MAX,
  checkAuthorInput,
  type AuthorLink,
  type AuthorProfile,
} from "#domain/authors.ts";
import { PAGE_SLUG_MAX } from "#domain/content-types/publishing.ts";
import { getDb } from "#server/db/client.server.ts";
import { requirePermission, userCan } from "#server/auth/session.server.ts";
import { assertMayEditAuthor } from "#server/content/ownership.server.ts";
import { AuthorInUseError, createAuthor, deleteAuthor, getAuthor, linkableAccounts, updateAuthor } from "#server/content/authors.server.ts";
import { AppError } from "#server/http/errors.server.ts";
import { BODY_LIMITS, readFormData } from "#server/http/request-body.server.ts";
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
  const refuse = (status: number, message: string, extra: Partial<Answer> = {}) => data<Answer>({ ok: false, message, at: Date.now(), ...extra }, { status });
  if (Number.isNaN(id)) return refuse(404, "authors.notFound");
  // Ownership (issue 40): an existing profile is changed or deleted by its owner (the linked account) or with content.others.
  if (id !== null) await assertMayEditAuthor(await getDb(), user, id, "page");
  let form: FormData;
  try {
    form = await readFormData(request, BODY_LIMITS.form);
  } catch (error) {
    // A body that is not a form, or too large, is a 4xx of the one error model, never a 500.
    if (error instanceof AppError) return refuse(error.status, "newsroom.ui.badRequest");
    throw error;
  }
  const intent = form.get("intent");
  const db = await getDb();
  if (intent === "delete") {
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

const primary = "rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700 disabled:opacity-60";
const secondary = "rounded-md border border-sand-300 px-3 py-2 text-sm font-bold hover:bg-sand-100";

/** The photo: a picture of the media library (or none), posted as its URL. */
function PhotoField({ value, error }: { value: string; error?: string }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(value);
  return (
    <Field id="author-photo" label={t("authors.f.photo")} error={error} hint={t("authors.h.photo")} group>
      {(control) => (
        <div className="flex flex-wrap items-center gap-3" role="group" aria-labelledby="author-photo-label" aria-describedby={control["aria-describedby"]}>
          <input type="hidden" name="photo_url" value={url} data-testid="author-photo-url" />
          {url ? (
            <img
              src={url}
              alt={t("authors.photoChosen")}
              width={96}
              height={96}
              className="h-24 w-24 rounded-full border border-sand-200 object-cover"
              data-testid="author-photo-preview"
            />
          ) : (
            <span className="text-sm text-ink-soft">{t("authors.noPhoto")}</span>
          )}
          <LibraryPickButton
            name="photo_url"
            describedBy={control["aria-describedby"]}
            className={secondary}
            kinds={["image"]}
            onChoose={(file) => setUrl(file.url)}
          />
          {url && (
            <button type="button" className={secondary} onClick={() => setUrl("")} data-testid="author-photo-remove">
              {t("authors.removePhoto")}
            </button>
          )}
        </div>
      )}
    </Field>
  );
}

/** Up to AUTHOR_LINKS_MAX label-and-address pairs. */
function LinksField({ links, fields }: { links: AuthorLink[]; fields?: Record<string, string> }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<AuthorLink[]>(links.length ? links : [{ label: "", url: "" }]);
  return (
    <fieldset className="space-y-3" data-testid="author-links">
      <legend className="mb-1 text-sm font-bold">{t("authors.f.links")}</legend>
      <p className="text-sm text-ink-soft">{t("authors.h.links")}</p>
      {fields?.links && (
        <p className="text-sm font-bold text-red-700" role="alert">
          {t(fields.links)}
        </p>
      )}
      {rows.map((link, i) => (
        <div key={i} className="grid gap-2 sm:grid-cols-[1fr_2fr_auto] sm:items-start">
          <InputField
            id={`link-label-${i}`}
            name="link_label"
            label={t("authors.f.linkLabel", { n: i + 1 })}
            defaultValue={link.label}
            maxLength={AUTHOR_LINK_LABEL_MAX}
            error={fields?.[`links.${i}.label`]}
            dir="auto"
            controlClassName="h-11"
          />
          <InputField
            id={`link-url-${i}`}
            name="link_url"
            type="url"
            inputMode="url"
            label={t("authors.f.linkUrl", { n: i + 1 })}
            defaultValue={link.url}
            maxLength={AUTHOR_URL_MAX}
            error={fields?.[`links.${i}.url`]}
            dir="ltr"
            placeholder="https://"
            controlClassName="h-11"
          />
          <button
            type="button"
            className={`${secondary} sm:mt-6`}
            onClick={() => setRows((r) => r.filter((_, j) => j !== i))}
            aria-label={`${t("authors.removeLink")} ${i + 1}`}
          >
            {t("authors.removeLink")}
          </button>
        </div>
      ))}
      {rows.length < AUTHOR_LINKS_MAX && (
        <button type="button" className={secondary} onClick={() => setRows((r) => [...r, { label: "", url: "" }])} data-testid="author-link-add">
          {t("authors.addLink")}
        </button>
      )}
    </fieldset>
  );
}

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
        <InputField
          id="author-name"
          name="name"
          label={t("authors.f.name")}
          requiredMark
          required
          defaultValue={value("name")}
          maxLength={AUTHOR_NAME_MAX}
          error={inUse ? undefined : fields?.name}
          dir="auto"
          controlClassName="h-11"
          data-testid="author-name"
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField
            id="author-name-fr"
            name="name_fr"
            label={t("authors.f.nameFr")}
            defaultValue={value("name_fr")}
            maxLength={AUTHOR_NAME_MAX}
            error={fields?.name_fr}
            dir="ltr"
            lang="fr"
            controlClassName="h-11"
            data-testid="author-name-fr"
          />
          <InputField
            id="author-name-en"
            name="name_en"
            label={t("authors.f.nameEn")}
            defaultValue={value("name_en")}
            maxLength={AUTHOR_NAME_MAX}
            error={fields?.name_en}
            dir="ltr"
            lang="en"
            controlClassName="h-11"
            data-testid="author-name-en"
          />
        </div>
        <InputField
          id="author-slug"
          name="slug"
          label={t("authors.f.slug")}
          hint={t("authors.h.slug")}
          defaultValue={value("slug")}
          maxLength={PAGE_SLUG_MAX}
          error={fields?.slug}
          dir="auto"
          controlClassName="h-11"
          data-testid="author-slug"
        />
        <PhotoField value={value("photo_url")} error={fields?.photo_url} />
        <TextAreaField
          id="author-bio"
          name="bio"
          label={t("authors.f.bio")}
          defaultValue={value("bio")}
          maxLength={AUTHOR_BIO_MAX}
          rows={4}
          error={fields?.bio}
          dir="auto"
          data-testid="author-bio"
        />
        <TextAreaField
          id="author-bio-fr"
          name="bio_fr"
          label={t("authors.f.bioFr")}
          defaultValue={value("bio_fr")}
          maxLength={AUTHOR_BIO_MAX}
          rows={3}
          error={fields?.bio_fr}
          dir="ltr"
          lang="fr"
        />
        <TextAreaField
          id="author-bio-en"
          name="bio_en"
          label={t("authors.f.bioEn")}
          defaultValue={value("bio_en")}
          maxLength={AUTHOR_BIO_MAX}
          rows={3}
          error={fields?.bio_en}
          dir="ltr"
          lang="en"
        />
        <LinksField links={answer?.links ?? author?.links ?? []} fields={fields} />
        {canLink ? (
          <Field id="author-account" label={t("authors.f.account")} hint={t("authors.h.account")} error={fields?.user_id}>
            {(control) => (
              <select {...control} name="user_id" defaultValue={value("user_id")} className={`${control.className} h-11`} data-testid="author-account">
                <option value="">{t("authors.noAccount")}</option>
                {accounts.map((a) => (
                  <option key={a.id} value={a.id} disabled={a.taken}>
                    {a.name} — {a.email}
                    {a.taken ? ` (${t("authors.accountTaken")})` : ""}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : (
          author?.user_email && (
            <p className="text-sm text-ink-soft">
              {t("authors.f.account")}: <bdi dir="ltr">{author.user_email}</bdi>
            </p>
          )
        )}
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
