import type { ReactNode } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import type { BlockChange, DisplayValue, TextBlock, TextDiff, WordPart } from "#domain/revision-diff.ts";
import { formatDate, formatList } from "#domain/format.ts";
import { imageSources } from "#domain/image-sources.ts";
import type { Language } from "#domain/language.ts";
import { EDITOR_STATUSES, type EditorStatus } from "#domain/content-types/index.ts";
import { StatusBadge } from "./content-table.tsx";

/**
 * The difference of two revisions as the revisions page shows it (app/routes/admin/content-revisions.tsx):
 * only the fields that differ, each as its value before and after, side by side from the md breakpoint and
 * one under the other on a phone (each labelled "before" / "after"); long text compared block by block and
 * word by word (domain/revision-diff.ts) with removals in <del> (struck through, red) and additions in <ins>
 * (underlined, green), each announced by hidden words where it starts and ends, since screen readers do not
 * say <del> and <ins> and colour alone is no cue.
 */

export type FieldDifference =
  { name: string; label: string; type: "value"; before: DisplayValue; after: DisplayValue } | { name: string; label: string; type: "text"; diff: TextDiff };

/** A text removed: struck through, red, announced. */
function Removed({ children, block = false }: { children: ReactNode; block?: boolean }) {
  const { t } = useTranslation();
  return (
    <del
      className={`${block ? "block px-2 py-1 " : "px-0.5 "}rounded-sm bg-red-100 text-red-950 decoration-red-700 decoration-2 [text-decoration-line:line-through]`}
      data-testid="diff-del"
    >
      <span className="sr-only">{t("newsroom.revisions.deletedStart")} </span>
      {children}
      <span className="sr-only"> {t("newsroom.revisions.deletedEnd")}</span>
    </del>
  );
}

/** A text added: underlined, green, announced. */
function Added({ children, block = false }: { children: ReactNode; block?: boolean }) {
  const { t } = useTranslation();
  return (
    <ins
      className={`${block ? "block px-2 py-1 " : "px-0.5 "}rounded-sm bg-emerald-100 text-emerald-950 underline decoration-emerald-700 decoration-2 underline-offset-4`}
      data-testid="diff-ins"
    >
      <span className="sr-only">{t("newsroom.revisions.insertedStart")} </span>
      {children}
      <span className="sr-only"> {t("newsroom.revisions.insertedEnd")}</span>
    </ins>
  );
}

/** An image's thumbnail and its address, isolated left to right so its slashes stay where they are in a right-to-left page. */
function Thumbnail({ src, alt }: { src: string; alt: string }) {
  const sources = imageSources(src);
  return (
    <figure className="space-y-1">
      <img
        src={sources.src}
        srcSet={sources.srcSet}
        sizes={sources.srcSet ? "10rem" : undefined}
        alt={alt}
        loading="lazy"
        className="h-24 w-40 rounded-md border border-sand-200 bg-sand-50 object-cover"
        data-testid="diff-image"
      />
      <figcaption className="text-xs text-ink-soft">
        <bdi dir="ltr" className="break-all">
          {src}
        </bdi>
      </figcaption>
    </figure>
  );
}

const linkable = (href: string) => /^(?:https?:\/\/|\/(?!\/))/i.test(href);

/** One value in the words of the page's language. */
export function RevisionValue({ value, imageAlt }: { value: DisplayValue; imageAlt: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  switch (value.kind) {
    case "empty":
      return <span className="text-ink-soft">{t("newsroom.revisions.empty")}</span>;
    case "text":
      return (
        <span dir="auto" className="whitespace-pre-line break-words">
          {value.text}
        </span>
      );
    case "list":
      return (
        <span dir="auto" className="break-words">
          {formatList(value.items, lang)}
        </span>
      );
    case "slug":
      return (
        <bdi dir="auto" className="break-all">
          {value.text}
        </bdi>
      );
    case "option":
      return <span>{t(value.key)}</span>;
    case "category": {
      const name = lang === "ar" ? value.name : (value.nameFr ?? value.name);
      return name ? (
        <span dir="auto" data-category-id={value.id}>
          {name}
        </span>
      ) : (
        <span className="text-ink-soft">{t(`newsroom.revisions.${value.of}Gone`, { id: value.id })}</span>
      );
    }
    case "boolean":
      return <span>{t(value.value ? "newsroom.revisions.yes" : "newsroom.revisions.no")}</span>;
    case "date":
      return <span>{formatDate(value.value, lang, value.withTime ? "dateTime" : "long") || value.value}</span>;
    case "status":
      return (EDITOR_STATUSES as readonly string[]).includes(value.status) ? (
        <StatusBadge status={value.status as EditorStatus} />
      ) : (
        <span>{value.status}</span>
      );
    case "image":
      return <Thumbnail src={value.src} alt={imageAlt} />;
    case "video":
      return (
        <span>
          {t("newsroom.revisions.videoId")}:{" "}
          <bdi dir="ltr" className="break-all font-mono text-sm">
            {value.id}
          </bdi>
        </span>
      );
    case "link":
      return linkable(value.href) ? (
        <a href={value.href} target="_blank" rel="noopener noreferrer" className="break-all text-desert-700 underline">
          <bdi dir="ltr">{value.href}</bdi>
        </a>
      ) : (
        <bdi dir="ltr" className="break-all">
          {value.href}
        </bdi>
      );
  }
}

/** The two sides of one change: "before" then "after", side by side from md, stacked on a phone. */
function Sides({ before, after, emptyBefore, emptyAfter }: { before: ReactNode; after: ReactNode; emptyBefore?: boolean; emptyAfter?: boolean }) {
  const { t } = useTranslation();
  const cell = "min-w-0 rounded-md border px-3 py-2";
  return (
    <div className="grid gap-2 md:grid-cols-2 md:gap-4">
      <div className={`${cell} border-red-200 bg-red-50/40 ${emptyBefore ? "hidden md:block md:border-dashed md:bg-transparent" : ""}`} data-side="before">
        <p className="mb-1 text-xs font-bold text-ink-soft md:sr-only">{t("newsroom.revisions.before")}</p>
        {before}
      </div>
      <div
        className={`${cell} border-emerald-200 bg-emerald-50/40 ${emptyAfter ? "hidden md:block md:border-dashed md:bg-transparent" : ""}`}
        data-side="after"
      >
        <p className="mb-1 text-xs font-bold text-ink-soft md:sr-only">{t("newsroom.revisions.after")}</p>
        {after}
      </div>
    </div>
  );
}

/** The words of one side of a changed paragraph: kept words plain, the side's own changes marked. */
function Words({ parts, side }: { parts: WordPart[]; side: "before" | "after" }) {
  return (
    <p dir="auto" className="whitespace-pre-wrap break-words leading-8">
      {parts.map((p, i) => {
        if (p.op === "same") return <span key={i}>{p.text}</span>;
        if ((side === "before" ? "del" : "ins") !== p.op) return null;
        // The mark covers the words, not the space after them.
        const words = p.text.trimEnd();
        const Mark = p.op === "del" ? Removed : Added;
        return (
          <span key={i}>
            <Mark>{words}</Mark>
            {p.text.slice(words.length)}
          </span>
        );
      })}
    </p>
  );
}

function Block({ block }: { block: TextBlock }) {
  const { t } = useTranslation();
  return block.kind === "image" ? (
    <Thumbnail src={block.src} alt={block.alt || t("newsroom.revisions.bodyImage")} />
  ) : (
    <p dir="auto" className="whitespace-pre-wrap break-words leading-8">
      {block.text}
    </p>
  );
}

function BlockRow({ change }: { change: BlockChange }) {
  const { t } = useTranslation();
  if (change.op === "same") {
    return (
      <p className="py-1 text-center text-xs text-ink-soft" data-testid="diff-unchanged">
        {t("newsroom.revisions.unchanged", { count: change.count })}
      </p>
    );
  }
  if (change.op === "changed") return <Sides before={<Words parts={change.parts} side="before" />} after={<Words parts={change.parts} side="after" />} />;
  const marked =
    change.op === "del" ? (
      <Removed block>
        <Block block={change.block} />
      </Removed>
    ) : (
      <Added block>
        <Block block={change.block} />
      </Added>
    );
  return change.op === "del" ? <Sides before={marked} after={null} emptyAfter /> : <Sides before={null} after={marked} emptyBefore />;
}

/** Every field that differs between the two versions, or "no differences". */
export function RevisionDifferences({ fields }: { fields: FieldDifference[] }) {
  const { t } = useTranslation();
  if (!fields.length) {
    return (
      <p className="rounded-md border border-dashed border-sand-300 px-4 py-6 text-center text-ink-soft" data-testid="no-differences">
        {t("newsroom.revisions.noDifferences")}
      </p>
    );
  }
  return (
    <div className="space-y-4" data-testid="revision-diff">
      <p className="text-sm text-ink-soft">
        {t("newsroom.revisions.changedFields", { count: fields.length })}. {t("newsroom.revisions.legend")}
      </p>
      <div className="hidden gap-4 text-sm font-bold text-ink-soft md:grid md:grid-cols-2" aria-hidden="true">
        <span>{t("newsroom.revisions.before")}</span>
        <span>{t("newsroom.revisions.after")}</span>
      </div>
      {fields.map((f) => (
        <section key={f.name} aria-labelledby={`diff-label-${f.name}`} className="space-y-2 border-t border-sand-100 pt-3" data-testid={`diff-${f.name}`}>
          <h3 id={`diff-label-${f.name}`} className="font-bold">
            {t(f.label)}
          </h3>
          {f.type === "value" ? (
            <Sides
              before={<RevisionValue value={f.before} imageAlt={t("newsroom.revisions.imageBefore")} />}
              after={<RevisionValue value={f.after} imageAlt={t("newsroom.revisions.imageAfter")} />}
            />
          ) : (
            <div className="space-y-2">
              {f.diff.changes.map((c, i) => (
                <BlockRow key={i} change={c} />
              ))}
              {f.diff.truncated && (
                <p className="text-sm text-ink-soft" data-testid="diff-truncated">
                  {t("newsroom.revisions.truncated")}
                </p>
              )}
            </div>
          )}
        </section>
      ))}
    </div>
  );
}
