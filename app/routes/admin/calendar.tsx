import { useState } from "react";
import { data, useFetcher, useRevalidator } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import type { Route } from "./+types/calendar";
import { DayHours, WeekGrid } from "#app/components/admin/calendar/calendar-grid.tsx";
import { CalendarNav } from "#app/components/admin/calendar/calendar-nav.tsx";
import { MoveDialog, MoveNotice } from "#app/components/admin/calendar/move-dialog.tsx";
import { keyOf, type MoveAnswer } from "#app/components/admin/calendar/move-answer.ts";
import { useCalendarDrag } from "#app/components/admin/calendar/use-calendar-drag.ts";
import { useFinePointer } from "#app/components/admin/calendar/use-fine-pointer.ts";
import { AdminError } from "#app/components/admin/guard.tsx";
import { Notice, useOnAnswer } from "#app/components/forms/notice.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import { calendarRange, dayOf, formatCalendarDay, instantOf, isCalendarDay, isCalendarView, type CalendarView } from "#domain/calendar.ts";
import { asText } from "#domain/content-form.ts";
import { ALL_CONTENT_TYPES } from "#domain/content-types/index.ts";
import type { Language } from "#domain/language.ts";
import { requirePermission, userCan } from "#server/auth/session.server.ts";
import { canPublish } from "#server/auth/permissions.server.ts";
import { assertMayEdit } from "#server/content/ownership.server.ts";
import { listCalendarItems, moveItem, type CalendarItem } from "#server/content/calendar.server.ts";
import { getDb } from "#server/db/client.server.ts";
import { BadRequestError, ForbiddenError, ValidationError } from "#server/http/errors.server.ts";
import { failedWhile, formAction, formSuccess } from "#server/http/form-action.server.ts";
import { languageOfRequest } from "#server/http/language.server.ts";
import { logger } from "#server/ops/logger.server.ts";
import { parseId } from "#domain/ids.ts";

/**
 * The schedule (issue 29, docs/decisions/0125-calendar.md): the scheduled and published items of every type the
 * account may write, by week (Monday first) or by day (by the hour), in Nouakchott's time. Everything shown
 * is in the URL — ?view=week|day&date=YYYY-MM-DD — so reading it and going from week to week are links that
 * work without JavaScript. Moving needs it (the date-time control does): "move" opens a dialog and, on a
 * desktop, an item can be dragged to another day (week) or hour (day); both post the same move to this page's
 * action.
 */

const PRIVATE = { "Cache-Control": "private, no-store" };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "content.write");
  const url = new URL(request.url);
  const now = new Date();
  const today = dayOf(now);
  const viewParam = url.searchParams.get("view");
  const dateParam = url.searchParams.get("date");
  // A mistyped view or date is no reason to refuse the calendar: it shows this week.
  const view: CalendarView = isCalendarView(viewParam) ? viewParam : "week";
  const day = isCalendarDay(dateParam) ? dateParam : today;
  const { days, from, to } = calendarRange(view, day);
  const types = ALL_CONTENT_TYPES.filter((d) => userCan(user, d.permissions.write)).map((d) => d.type);
  let items: CalendarItem[] = [];
  let truncated = false;
  let loadFailed = false;
  try {
    ({ items, truncated } = await listCalendarItems(await getDb(), { from, to, types, lang: languageOfRequest(request), now }));
  } catch (error) {
    logger.error({ err: error }, "calendar failed to load");
    loadFailed = true;
  }
  // Every item shown is scheduled or published: moving one changes what readers see, so content.publish (issue 40).
  const canMove = canPublish(user.profile);
  return data({ view, day, days, today, items, truncated, loadFailed, canMove }, { status: loadFailed ? 503 : 200, headers: PRIVATE });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders, errorHeaders }) => errorHeaders ?? loaderHeaders;

/** The page's one action: move an item (its type's write permission) to the wall time posted, in Nouakchott's time. */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "content.write");
  return formAction<MoveAnswer>(
    request,
    { limit: "account", echo: (form) => ({ key: `${asText(form?.get("type"))}-${asText(form?.get("id"))}` }) },
    async (form) => {
      const def = ALL_CONTENT_TYPES.find((d) => d.type === form.get("type"));
      const id = parseId(form.get("id"));
      if (form.get("intent") !== "move" || !def || id === null) throw new BadRequestError("BAD_REQUEST", "Not a move of an item.");
      if (!userCan(user, def.permissions.write)) throw new ForbiddenError("admin.permissionNeeded", "PERMISSION_NEEDED");
      // A scheduled or published item's time is what readers see (issue 40): content.publish, and ownership.
      if (!canPublish(user.profile)) throw new ForbiddenError("rights.publishNeeded", "PUBLISH_PERMISSION");
      await assertMayEdit(await getDb(), user, def.type, id);
      const at = instantOf(asText(form.get("publish_date")));
      if (!at) throw new ValidationError("Not a date and time.", { publish_date: "calendar.invalidTime" }, { status: 400, code: "INVALID" });
      const expectedUpdatedAt = asText(form.get("updated_at")) || null;
      try {
        const item = await moveItem(await getDb(), def.type, id, { publishDate: at, expectedUpdatedAt }, user);
        return formSuccess<MoveAnswer>({
          key: keyOf({ type: def.type, id }),
          moved: { key: keyOf({ type: def.type, id }), title: item.title, publish_date: item.publish_date, status: item.status },
        });
      } catch (error) {
        throw failedWhile("calendar move failed", error, { type: def.type, id });
      }
    },
  );
}

export const meta: Route.MetaFunction = ({ matches }) => authMeta(matches, "calendar.title");

export default function CalendarPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language as Language) || "ar";
  const { view, day, days, today, items, truncated, loadFailed, canMove } = loaderData;
  const fetcher = useFetcher<MoveAnswer>();
  const revalidator = useRevalidator();
  // The item being moved in the dialog, and when the dialog opened (what "a time gone" is measured against).
  const [moving, setMoving] = useState<{ item: CalendarItem; now: number } | null>(null);
  const [notice, setNotice] = useState<MoveAnswer | null>((actionData as MoveAnswer | undefined) ?? null);
  const canDrag = useFinePointer() && canMove;

  useOnAnswer(actionData as MoveAnswer | undefined, setNotice);
  useOnAnswer(fetcher.data, (answer) => {
    // A time that is not one stays in the dialog, beside the field; anything else closes it and is told on the page.
    if (!answer.ok && answer.formError === "INVALID") return;
    setMoving(null);
    setNotice(answer);
    // After a refusal the calendar is read again (a conflict: the item's current time); a success revalidates by itself.
    if (!answer.ok) void revalidator.revalidate();
  });

  const heading =
    view === "week"
      ? t("calendar.weekRange", { from: formatCalendarDay(days[0], lang, "date"), to: formatCalendarDay(days[6], lang, "date") })
      : formatCalendarDay(day, lang, "full");
  const openMove = (item: CalendarItem) => {
    setNotice(null);
    setMoving({ item, now: Date.now() });
  };
  const submitMove = (item: CalendarItem, wall: string) => {
    setNotice(null);
    void fetcher.submit({ intent: "move", type: item.type, id: String(item.id), updated_at: item.updated_at, publish_date: wall }, { method: "post" });
  };
  const { dragOf, dropOn } = useCalendarDrag(items, canDrag, submitMove);
  const grid = { items, canMove, onMove: openMove, dragOf, dropOn };

  return (
    <div className="space-y-5" data-testid="calendar-page" data-view={view} data-date={day}>
      <header className="space-y-1">
        <h1 className="text-2xl font-bold">{t("calendar.title")}</h1>
        <p className="text-sm text-ink-soft">{t("calendar.intro")}</p>
      </header>

      <CalendarNav view={view} day={day} days={days} today={today} />

      <h2 className="text-lg font-bold" data-testid="calendar-heading">
        {heading} <span className="text-sm font-normal text-ink-soft">· {t("calendar.timeZone")}</span>
      </h2>

      {loadFailed && (
        <Notice tone="error" testId="calendar-load-failed">
          {t("calendar.loadFailed")}
        </Notice>
      )}
      {truncated && <Notice testId="calendar-truncated">{t("calendar.truncated")}</Notice>}
      {notice && <MoveNotice answer={notice} view={view} days={days} />}
      {canDrag && items.length > 0 && <p className="text-xs text-ink-soft">{t("calendar.dragHint")}</p>}

      {view === "week" ? <WeekGrid days={days} today={today} {...grid} /> : <DayHours day={day} {...grid} />}
      {!loadFailed && items.length === 0 && (
        <p className="text-sm text-ink-soft" data-testid="calendar-empty">
          {t(view === "week" ? "calendar.emptyWeek" : "calendar.emptyDay")}
        </p>
      )}

      <MoveDialog moving={moving} onClose={() => setMoving(null)} fetcher={fetcher} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
