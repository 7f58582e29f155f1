import { useState } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import { LibraryPickButton } from "#app/components/admin/library-picker.tsx";
import { Field, InputField, TextAreaField } from "#app/components/forms/field.tsx";
import {
  AUTHOR_BIO_MAX,
  AUTHOR_LINK_LABEL_MAX,
  AUTHOR_LINKS_MAX,
  AUTHOR_NAME_MAX,
  AUTHOR_URL_MAX,
  type AuthorLink,
  type AuthorProfile,
} from "#domain/authors.ts";
import { PAGE_SLUG_MAX } from "#domain/content-types/publishing.ts";

export const primary = "rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700 disabled:opacity-60";
export const secondary = "rounded-md border border-sand-300 px-3 py-2 text-sm font-bold hover:bg-sand-100";

/** A text of the profile as shown: what was typed (after a refusal), else what is saved. */
export type ValueOf = (key: keyof AuthorProfile) => string;
type Errors = Record<string, string> | undefined;

/** The photo: a picture of the media library (or none), posted as its URL. */
export function PhotoField({ value, error }: { value: string; error?: string }) {
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
export function LinksField({ links, fields }: { links: AuthorLink[]; fields?: Record<string, string> }) {
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

/** The name in Arabic (required), French and English, and the slug of the public page. */
export function AuthorNames({ value, fields, nameError }: { value: ValueOf; fields: Errors; nameError: string | undefined }) {
  const { t } = useTranslation();
  return (
    <>
      <InputField
        id="author-name"
        name="name"
        label={t("authors.f.name")}
        requiredMark
        required
        defaultValue={value("name")}
        maxLength={AUTHOR_NAME_MAX}
        error={nameError}
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
    </>
  );
}

/** The biography in Arabic, French and English. */
export function AuthorBios({ value, fields }: { value: ValueOf; fields: Errors }) {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}

type Account = { id: string; email: string; name: string; taken: boolean };

/** The account whose default byline the profile is: chosen with users.manage, else only shown. */
export function AccountField({
  canLink,
  accounts,
  value,
  error,
  linked,
}: {
  canLink: boolean;
  accounts: Account[];
  value: ValueOf;
  error: string | undefined;
  linked: string | null | undefined;
}) {
  const { t } = useTranslation();
  if (!canLink) {
    return linked ? (
      <p className="text-sm text-ink-soft">
        {t("authors.f.account")}: <bdi dir="ltr">{linked}</bdi>
      </p>
    ) : null;
  }
  return (
    <Field id="author-account" label={t("authors.f.account")} hint={t("authors.h.account")} error={error}>
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
  );
}
