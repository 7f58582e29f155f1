import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { calendarHref, dayOf, formatCalendarDay, hourOf } from "#domain/calendar.ts";
import type { Language } from "#domain/language.ts";
import { localizeDigits } from "#domain/format.ts";
import type { CalendarItem } from "#server/content/calendar.server.ts";
import { CalendarEntry } from "./calendar-entry.tsx";
import { keyOf } from "./move-answer.ts";
import { pad, type DragOf, type DropOn } from "./use-calendar-drag.ts";

type GridProps = {
  items: CalendarItem[];
  canMove: boolean;
  onMove: (item: CalendarItem) => void;
  dragOf: DragOf;
  dropOn: DropOn;
};

const itemsOn = (items: CalendarItem[], day: string) => items.filter((i) => dayOf(new Date(i.publish_date)) === day);

/** The week: seven days, Monday first, each a link to its day and a place to drop an item. */
export function WeekGrid({ days, today, ...grid }: GridProps & { days: readonly string[]; today: string }) {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language as Language) || "ar";
  return (
    <ol className="grid gap-3 lg:grid-cols-7" data-testid="calendar-week">
      {days.map((d) => {
        const own = itemsOn(grid.items, d);
        return (
          <li
            key={d}
            className={`min-w-0 rounded-lg border p-2 ${d === today ? "border-desert-500 bg-desert-50" : "border-sand-200 bg-sand-50"} data-[drop-target=on]:outline-dashed data-[drop-target=on]:outline-2 data-[drop-target=on]:outline-desert-500`}
            data-testid="calendar-day"
            data-day={d}
            {...grid.dropOn({ day: d })}
          >
            <h3 className="mb-2 text-sm font-bold">
              <Link to={calendarHref("day", d)} className="hover:underline" aria-current={d === today ? "date" : undefined} data-testid="calendar-day-link">
                {formatCalendarDay(d, lang)}
              </Link>
            </h3>
            {own.length ? <Entries own={own} {...grid} /> : <p className="text-xs text-ink-soft">{t("calendar.emptyDay")}</p>}
          </li>
        );
      })}
    </ol>
  );
}

/** The day: 24 hours, each a place to drop an item. */
export function DayHours({ day, ...grid }: GridProps & { day: string }) {
  const { t, i18n } = useTranslation();
  return (
    <ol className="divide-y divide-sand-200 rounded-lg border border-sand-200 bg-white" data-testid="calendar-hours">
      {Array.from({ length: 24 }, (_, hour) => {
        const own = itemsOn(grid.items, day).filter((i) => hourOf(new Date(i.publish_date)) === hour);
        return (
          <li
            key={hour}
            className="flex gap-3 p-2 data-[drop-target=on]:bg-desert-50"
            data-testid="calendar-hour"
            data-hour={hour}
            {...grid.dropOn({ day, hour })}
          >
            <span className="w-12 shrink-0 pt-2 text-sm tabular-nums text-ink-soft" dir="ltr">
              {localizeDigits(`${pad(hour)}:00`, i18n.language as Language)}
            </span>
            {own.length ? <Entries own={own} className="min-w-0 flex-1 space-y-2" {...grid} /> : <span className="sr-only">{t("calendar.emptyHour")}</span>}
          </li>
        );
      })}
    </ol>
  );
}

function Entries({ own, className = "space-y-2", canMove, onMove, dragOf }: GridProps & { own: CalendarItem[]; className?: string }) {
  return (
    <ul className={className}>
      {own.map((item) => (
        <CalendarEntry key={keyOf(item)} item={item} canMove={canMove} onMove={onMove} dragOf={dragOf} />
      ))}
    </ul>
  );
}
