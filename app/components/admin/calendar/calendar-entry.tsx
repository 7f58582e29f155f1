import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { StatusBadge } from "#app/components/admin/content-table.tsx";
import { dayOf, timeOf } from "#domain/calendar.ts";
import { localizeDigits } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import { definitionOf, type ContentType } from "#domain/content-types/index.ts";
import type { CalendarItem } from "#server/content/calendar.server.ts";
import { keyOf } from "./move-answer.ts";
import type { DragOf } from "./use-calendar-drag.ts";

const TYPE_TONES: Record<ContentType, string> = {
  article: "bg-desert-100 text-desert-900",
  news: "bg-red-100 text-red-900",
  coverage: "bg-sky-100 text-sky-900",
  podcast: "bg-violet-100 text-violet-900",
  program: "bg-palm-600/10 text-palm-800",
  media: "bg-sand-200 text-ink",
};

function TypeBadge({ type }: { type: ContentType }) {
  const { t } = useTranslation();
  return (
    <span className={`inline-block whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-bold ${TYPE_TONES[type]}`} data-testid="calendar-type">
      {t(definitionOf(type).labels.singular)}
    </span>
  );
}

type EntryProps = { item: CalendarItem; canMove: boolean; onMove: (item: CalendarItem) => void; dragOf: DragOf };

/** One item on the calendar: its time, type and state, its title (a link to its editor), and "move". */
export function CalendarEntry({ item, canMove, onMove, dragOf }: EntryProps) {
  const { t, i18n } = useTranslation();
  const key = keyOf(item);
  const at = new Date(item.publish_date);
  const { dragged, ...drag } = dragOf(key);
  return (
    <li
      className={`rounded-md border border-sand-200 bg-white p-2 text-sm shadow-sm ${dragged ? "opacity-50" : ""}`}
      data-testid="calendar-item"
      data-key={key}
      data-type={item.type}
      data-id={item.id}
      data-status={item.status}
      data-day={dayOf(at)}
      data-time={timeOf(at)}
      {...drag}
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <time dateTime={item.publish_date} className="font-bold tabular-nums" dir="ltr" data-testid="calendar-time">
          {localizeDigits(timeOf(at), i18n.language as Language)}
        </time>
        <TypeBadge type={item.type} />
        <StatusBadge status={item.status} />
      </div>
      <Link to={item.edit_url} className="mt-1 block font-bold text-ink hover:underline" dir="auto" data-testid="calendar-title">
        {item.title}
      </Link>
      {item.category_name && <p className="text-xs text-ink-soft">{item.category_name}</p>}
      {canMove && (
        <button
          type="button"
          onClick={() => onMove(item)}
          className="mt-1 inline-block rounded border border-sand-300 px-2 py-1 text-xs font-bold hover:bg-sand-100"
          data-testid="calendar-move"
        >
          {t("calendar.move")}
          <span className="sr-only"> {item.title}</span>
        </button>
      )}
    </li>
  );
}
