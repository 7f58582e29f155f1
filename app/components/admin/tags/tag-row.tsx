import { Link } from "react-router";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import type { TagSummary } from "#domain/tags.ts";
import { smallButton, type TagsDialog } from "./tags-answer.ts";

type RowProps = {
  tag: TagSummary;
  canManage: boolean;
  selected: boolean;
  onSelect: (tag: TagSummary, on: boolean) => void;
  onOpen: (dialog: TagsDialog) => void;
};

/** A tag: its name and address, how many items carry it, and (with tags.manage) select, rename, delete. */
export function TagRow({ tag, canManage, selected, onSelect, onOpen }: RowProps) {
  const { t } = useTranslation();
  const count = useCount();
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" data-testid="tag-row" data-id={tag.id} data-slug={tag.slug}>
      {canManage && (
        <input
          type="checkbox"
          id={`tag-select-${tag.id}`}
          className="h-5 w-5 shrink-0"
          checked={selected}
          onChange={(e) => onSelect(tag, e.currentTarget.checked)}
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
              onClick={() => onOpen({ kind: "rename", tag })}
              data-testid="tag-rename"
            >
              {t("tags.rename")}
            </button>
            <button
              type="button"
              className={`${smallButton} text-red-700`}
              aria-label={t("tags.deleteOf", { name: tag.name })}
              onClick={() => onOpen({ kind: "delete", tag })}
              data-testid="tag-delete"
            >
              {t("tags.delete")}
            </button>
          </>
        )}
      </div>
    </li>
  );
}
