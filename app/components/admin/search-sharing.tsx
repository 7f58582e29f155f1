/**
 * The editor's «محركات البحث والمشاركة» section (issue 29, docs/decisions/0123-search-and-sharing.md): the type's
 * fields of the `searchAndSharing` group, each rendered by the content form's own control (same ids, messages and
 * checks), with what a blank one stands for as its placeholder, and two live previews built by the same rules the
 * public page's meta tags follow (domain/search-sharing.ts): the share card Facebook and WhatsApp draw, and the
 * search engine's snippet, cut where Google cuts.
 *
 * The previews read the form as it is typed: its inputs, and the pictures the image fields show (a file just
 * chosen, a library pick, or the saved one), so nothing of the form's own state has to be lifted here.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useRouteLoaderData } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { RootLoaderData } from "#app/root.tsx";
import type { FormValues } from "#domain/content-form.ts";
import { publicUrl, slugify, type ContentTypeDefinition, type FieldDefinition } from "#domain/content-types/index.ts";
import type { FieldErrors } from "#domain/schemas/shared.ts";
import { effectiveSharing, snippetText, SNIPPET_DESCRIPTION_MAX, SNIPPET_TITLE_MAX, type SharingInput } from "#domain/search-sharing.ts";

type Props = {
  def: ContentTypeDefinition;
  values: FormValues;
  /** The site's public origin. */
  origin: string;
  errors: FieldErrors;
  /** The content form's control of a field, with a placeholder. */
  control: (field: FieldDefinition, placeholder?: string) => ReactNode;
};

/** What the previews need of the form, as typed. */
type Live = { [K in Exclude<keyof SharingInput, "noindex">]: string } & { noindex: boolean; slug: string };

const GROUP = "searchAndSharing";

/** The form's picture of an image field: what its preview shows (a new file, a library pick, the saved one), or "". */
function shownImage(form: HTMLFormElement, name: string): string {
  return form.querySelector<HTMLImageElement>(`img[data-testid="image-preview-${name}"]`)?.getAttribute("src") ?? "";
}

function valueOf(form: HTMLFormElement, name: string): string {
  const element = form.elements.namedItem(name);
  if (element instanceof HTMLInputElement && element.type === "checkbox") return element.checked ? "on" : "";
  return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.value : "";
}

function fromValues(def: ContentTypeDefinition, values: FormValues): Live {
  return {
    title: values.title ?? "",
    summary: values[def.summaryField] ?? "",
    image: values.image_url ?? "",
    metaDescription: values.meta_description ?? "",
    shareTitle: values.share_title ?? "",
    shareImage: values.share_image_url ?? "",
    canonicalUrl: values.canonical_url ?? "",
    noindex: values.noindex === "on",
    slug: values.page_slug ?? "",
  };
}

function fromForm(def: ContentTypeDefinition, form: HTMLFormElement): Live {
  return {
    title: valueOf(form, "title"),
    summary: valueOf(form, def.summaryField),
    image: shownImage(form, "image_url"),
    metaDescription: valueOf(form, "meta_description"),
    shareTitle: valueOf(form, "share_title"),
    shareImage: shownImage(form, "share_image_url"),
    canonicalUrl: valueOf(form, "canonical_url"),
    noindex: valueOf(form, "noindex") === "on",
    slug: valueOf(form, "page_slug"),
  };
}

export function SearchSharingSection({ def, values, origin, errors, control }: Props) {
  const { t, i18n } = useTranslation();
  const root = useRouteLoaderData<RootLoaderData>("root");
  const fields = def.fields.filter((f) => f.group === GROUP);
  const box = useRef<HTMLDetailsElement>(null);
  const headingId = useId();
  const [live, setLive] = useState<Live>(() => fromValues(def, values));
  const hasValue = fields.some((f) => Boolean(values[f.name]));
  const hasError = fields.some((f) => Boolean(errors[f.name]));
  const [open, setOpen] = useState(hasValue);

  useEffect(() => {
    const form = box.current?.closest("form");
    if (!form) return;
    let last = "";
    const read = () => {
      const next = fromForm(def, form);
      const key = JSON.stringify(next);
      if (key !== last) {
        last = key;
        setLive(next);
      }
    };
    read();
    form.addEventListener("input", read);
    form.addEventListener("change", read);
    // A library pick or a removed picture changes what the image fields show without an input event.
    const observer = new MutationObserver(read);
    observer.observe(form, { subtree: true, childList: true, attributes: true, attributeFilter: ["src", "value"] });
    return () => {
      form.removeEventListener("input", read);
      form.removeEventListener("change", read);
      observer.disconnect();
    };
  }, [def]);

  if (fields.length === 0) return null;

  const shown = effectiveSharing(live);
  const slug = slugify(live.slug) || slugify(live.title);
  const ownUrl = slug ? origin + publicUrl(def.type, slug) : origin + def.publicPath;
  const url = shown.canonical ?? ownUrl;
  const lang = root?.lang ?? (i18n.language === "fr" ? "fr" : "ar");
  const siteName = (lang === "ar" ? root?.site.siteName : root?.site.siteNameFr) ?? "";
  // The snippet shows the page's <title>: the item's own title (the share title is for the card), then the site's name.
  const ownTitle = live.title.trim() || t("searchSharing.preview.untitled");
  const pageTitle = siteName ? `${ownTitle} | ${siteName}` : ownTitle;
  const host = hostOf(origin);
  const crumbs = readableUrl(url);
  const placeholders: Record<NonNullable<FieldDefinition["fallback"]>, string> = { title: live.title, summary: live.summary, image: "" };

  return (
    <details
      ref={box}
      open={open || hasError}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      className="group rounded-lg border border-sand-200 bg-white shadow-sm"
      data-testid="search-sharing"
    >
      <summary id={headingId} className="cursor-pointer list-none p-4 text-base font-bold sm:px-6" data-testid="search-sharing-toggle">
        <span aria-hidden="true" className="me-2 inline-block transition-transform group-open:rotate-90 rtl:-scale-x-100">
          ›
        </span>
        {t("searchSharing.section")}
      </summary>
      <div role="group" aria-labelledby={headingId} className="space-y-5 border-t border-sand-200 p-4 sm:p-6">
        <p className="text-sm text-ink-soft">{t("searchSharing.intro")}</p>
        {fields.map((f) => control(f, f.fallback ? placeholders[f.fallback].slice(0, f.max ?? 500) || undefined : undefined))}

        {/* grid-cols-1 (minmax(0, 1fr)): the snippet's one-line address is cut, not widening the column past a phone's screen. */}
        <div className="grid grid-cols-1 gap-5 xl:grid-cols-2">
          <section aria-label={t("searchSharing.preview.card")} data-testid="share-preview">
            <h3 className="mb-2 text-sm font-bold">{t("searchSharing.preview.card")}</h3>
            <div className="overflow-hidden rounded-md border border-sand-300 bg-[#f0f2f5]" data-testid="share-card">
              {shown.image ? (
                <img src={shown.image} alt="" className="aspect-[1.91/1] w-full object-cover" data-testid="share-card-image" />
              ) : (
                <div className="flex aspect-[1.91/1] w-full items-center justify-center text-sm text-ink-soft" data-testid="share-card-no-image">
                  {t("searchSharing.preview.noImage")}
                </div>
              )}
              <div className="space-y-0.5 border-t border-sand-300 px-3 py-2">
                {/* The address reads left to right, on the reading side of the card (right in Arabic). */}
                <p className="text-xs text-[#65676b] uppercase">
                  <bdi dir="ltr" data-testid="share-card-domain">
                    {host}
                  </bdi>
                </p>
                <p dir="auto" className="line-clamp-2 font-bold text-[#050505]" data-testid="share-card-title">
                  {shown.title || t("searchSharing.preview.untitled")}
                </p>
                <p dir="auto" className="line-clamp-1 text-sm text-[#65676b]" data-testid="share-card-description">
                  {shown.description}
                </p>
              </div>
            </div>
          </section>

          <section aria-label={t("searchSharing.preview.snippet")} data-testid="snippet-preview">
            <h3 className="mb-2 text-sm font-bold">{t("searchSharing.preview.snippet")}</h3>
            <div className={`space-y-1 rounded-md border border-sand-300 bg-white p-3 ${shown.noindex ? "opacity-60" : ""}`} data-testid="snippet">
              {/* Left to right as a whole, so a long address is cut at its end, not its start, on an Arabic page. */}
              <p dir="ltr" className="truncate text-left text-sm text-[#202124] rtl:text-right">
                <bdi dir="ltr" data-testid="snippet-url" data-url={url}>
                  {crumbs}
                </bdi>
              </p>
              <p dir="auto" className="text-lg leading-snug text-[#1a0dab]" data-testid="snippet-title" data-full={pageTitle}>
                {snippetText(pageTitle, SNIPPET_TITLE_MAX)}
              </p>
              <p dir="auto" className="text-sm text-[#4d5156]" data-testid="snippet-description" data-full={shown.description}>
                {snippetText(shown.description, SNIPPET_DESCRIPTION_MAX)}
              </p>
            </div>
            {shown.noindex && (
              <p className="mt-2 text-sm font-bold text-amber-800" data-testid="snippet-noindex">
                {t("searchSharing.preview.noindex")}
              </p>
            )}
          </section>
        </div>
      </div>
    </details>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** An address as Google prints it: the host, then the path's segments after «›», decoded. */
function readableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const segments = parsed.pathname.split("/").filter(Boolean).map(safeDecode);
    return [`${parsed.protocol}//${parsed.host}`, ...segments].join(" › ");
  } catch {
    return url;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
