import { useState, type Dispatch, type SetStateAction } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { NEWSLETTER_LIMITS, type NewsletterSendKind } from "#domain/newsletter-sends.ts";
import { formatNumber } from "#domain/plural.ts";
import { inputClass, smallButton, type ComposedItem } from "./newsletter-types.ts";

type ItemsProps = {
  kind: NewsletterSendKind;
  items: ComposedItem[];
  setItems: Dispatch<SetStateAction<ComposedItem[]>>;
  recent: ComposedItem[];
  error: string | undefined;
};

/** The mail's items in their order (moved up and down, removed), and a choice of recent items to add. */
export function ComposedItems({ kind, items, setItems, recent, error }: ItemsProps) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState("");
  const chosen = new Set(items.map((i) => `${i.type}:${i.id}`));
  const addable = recent.filter((r) => !chosen.has(`${r.type}:${r.id}`));
  const move = (index: number, by: number) =>
    setItems((current) => {
      const next = [...current];
      const [moved] = next.splice(index, 1);
      next.splice(Math.max(0, Math.min(next.length, index + by)), 0, moved);
      return next;
    });
  const add = () => {
    const found = recent.find((r) => `${r.type}:${r.id}` === adding);
    if (!found) return;
    setItems((current) => (kind === "item" ? [found] : [...current, found].slice(0, NEWSLETTER_LIMITS.items)));
    setAdding("");
  };

  return (
    <div>
      <h3 className="mb-2 font-bold">{t("newsletterAdmin.items")}</h3>
      {items.length === 0 ? <p className="text-sm text-ink-soft">{t("newsletterAdmin.noItems")}</p> : null}
      <ol className="space-y-2" data-testid="newsletter-items">
        {items.map((item, index) => (
          <ComposedItemRow
            key={`${item.type}:${item.id}`}
            item={item}
            index={index}
            last={index === items.length - 1}
            onMove={(by) => move(index, by)}
            onRemove={() => setItems((current) => current.filter((_, i) => i !== index))}
          />
        ))}
      </ol>
      {error ? (
        <p className="mt-1 text-sm text-red-700" role="alert">
          {t(error)}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-sm font-bold">
          {t(kind === "item" ? "newsletterAdmin.chooseItem" : "newsletterAdmin.addItem")}
          <select value={adding} onChange={(e) => setAdding(e.target.value)} className={inputClass} data-testid="newsletter-add-select">
            <option value="">—</option>
            {addable.map((r) => (
              <option key={`${r.type}:${r.id}`} value={`${r.type}:${r.id}`}>
                {`${t(`newsletterAdmin.types.${r.type}`)}: ${r.title}`}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className={smallButton} onClick={add} disabled={!adding} data-testid="newsletter-add">
          {t(kind === "item" ? "newsletterAdmin.choose" : "newsletterAdmin.add")}
        </button>
      </div>
    </div>
  );
}

type RowProps = { item: ComposedItem; index: number; last: boolean; onMove: (by: number) => void; onRemove: () => void };

function ComposedItemRow({ item, index, last, onMove, onRemove }: RowProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  return (
    <li className="flex flex-wrap items-center gap-2 rounded-md border border-sand-200 p-2" data-testid="newsletter-item" data-ref={`${item.type}:${item.id}`}>
      <span className="w-6 text-center font-bold text-ink-soft">{formatNumber(lang, index + 1)}</span>
      <span className="min-w-0 flex-1">
        <span className="block font-bold" dir="auto">
          {item.title}
        </span>
        <span className="text-xs text-ink-soft">
          {t(`newsletterAdmin.types.${item.type}`)} · {formatDate(item.publishDate, lang)}
          {item.priority ? ` · ${t(`newsletterAdmin.priority.${item.priority}`)}` : ""}
          {item.reads !== undefined ? ` · ${t("newsletterAdmin.reads", { n: formatNumber(lang, item.reads) })}` : ""}
        </span>
      </span>
      <button type="button" className={smallButton} onClick={() => onMove(-1)} disabled={index === 0} aria-label={`${t("newsletterAdmin.up")} ${item.title}`}>
        {t("newsletterAdmin.up")}
      </button>
      <button type="button" className={smallButton} onClick={() => onMove(1)} disabled={last} aria-label={`${t("newsletterAdmin.down")} ${item.title}`}>
        {t("newsletterAdmin.down")}
      </button>
      <button
        type="button"
        className={smallButton}
        onClick={onRemove}
        aria-label={`${t("newsletterAdmin.remove")} ${item.title}`}
        data-testid="newsletter-item-remove"
      >
        {t("newsletterAdmin.remove")}
      </button>
    </li>
  );
}
