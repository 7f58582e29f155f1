import { Link } from "react-router";
import { LibraryThumbnail } from "#app/components/admin/library-thumbnail.tsx";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import type { LibraryFile, LibraryFilter } from "#domain/library.ts";

export function KindIcon({ kind }: { kind: LibraryFilter }) {
  // A sound wave, a page: shapes only, the card's words say what it is.
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true" className="h-12 w-12 text-ink-soft" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
      {kind === "audio" ? (
        <path d="M6 24h4M14 16v16M20 10v28M26 18v12M32 13v22M38 20v8M42 24h0" />
      ) : (
        <>
          <path d="M13 5h16l10 10v28H13z" />
          <path d="M29 5v10h10M18 25h16M18 31h16M18 37h10" />
        </>
      )}
    </svg>
  );
}

export function LibraryCard({ item, to }: { item: LibraryFile; to: string }) {
  const { t } = useTranslation();
  const count = useCount();
  return (
    <Link
      to={to}
      preventScrollReset
      className="group flex h-full flex-col overflow-hidden rounded-lg border border-sand-200 bg-white shadow-sm transition hover:shadow-md focus-visible:ring-2 focus-visible:ring-desert-500"
      data-testid="library-item"
      data-kind={item.kind}
      data-id={item.id || undefined}
    >
      <LibraryThumbnail src={item.thumbnail} width={item.width ?? 400} height={item.height ?? 300} focal={item.focal} fallback={<KindIcon kind={item.kind} />}>
        <span className="absolute start-2 top-2 rounded-full bg-white/90 px-2 py-0.5 text-xs font-bold text-ink shadow-sm">
          {t(`library.kinds.${item.kind}`)}
        </span>
      </LibraryThumbnail>
      <div className="flex flex-1 flex-col gap-1 p-2.5">
        <span className="line-clamp-2 text-sm font-bold break-words" dir="auto" title={item.name}>
          {item.name}
        </span>
        <span className={`text-xs ${item.usageCount ? "text-palm-700" : "text-ink-soft"}`} data-testid="library-usage">
          {item.usageCount ? count("library.usedBy", item.usageCount) : t("library.unused")}
        </span>
        {item.kind === "video" && <span className="text-xs text-desert-700">{t("library.manageVideo")}</span>}
      </div>
    </Link>
  );
}
