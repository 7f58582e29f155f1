import { Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { cancelButtonClass } from "#app/components/admin/modal-dialog.tsx";
import { calendarHref, neighbours, type CalendarView } from "#domain/calendar.ts";

/** Previous, today, next, and week or day: links, so that reading the calendar needs no JavaScript. */
export function CalendarNav({ view, day, days, today }: { view: CalendarView; day: string; days: readonly string[]; today: string }) {
  const { t } = useTranslation();
  const { previous, next } = neighbours(view, day);
  return (
    <nav aria-label={t("calendar.navigation")} className="flex flex-wrap items-center gap-2" data-testid="calendar-nav">
      <Link to={calendarHref(view, previous)} className={cancelButtonClass} data-testid="calendar-previous" prefetch="intent">
        {t(view === "week" ? "calendar.previousWeek" : "calendar.previousDay")}
      </Link>
      <Link to={calendarHref(view, today)} className={cancelButtonClass} data-testid="calendar-today" aria-current={days.includes(today) ? "date" : undefined}>
        {t("calendar.today")}
      </Link>
      <Link to={calendarHref(view, next)} className={cancelButtonClass} data-testid="calendar-next" prefetch="intent">
        {t(view === "week" ? "calendar.nextWeek" : "calendar.nextDay")}
      </Link>
      <span className="mx-2 hidden h-6 border-s border-sand-300 sm:inline-block" aria-hidden="true" />
      {(["week", "day"] as const).map((v) => (
        <Link
          key={v}
          to={calendarHref(v, day)}
          aria-current={v === view ? "page" : undefined}
          className={`rounded-md px-4 py-2 text-sm font-bold ${v === view ? "bg-desert-600 text-white" : "border border-sand-300 hover:bg-sand-100"}`}
          data-testid={`calendar-view-${v}`}
        >
          {t(`calendar.${v}`)}
        </Link>
      ))}
    </nav>
  );
}
