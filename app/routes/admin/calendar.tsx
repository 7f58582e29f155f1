import { useId, useState, useSyncExternalStore, type DragEvent } from "react";
import { data, Link, useFetcher, useRevalidator } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/calendar";
import { AdminError } from "#app/components/admin/guard.tsx";
import { StatusBadge } from "#app/components/admin/content-table.tsx";
import { CloseDialogButton, DIALOG_WIDTH, ModalDialog, cancelButtonClass } from "#app/components/admin/modal-dialog.tsx";
import { DateTimeInput } from "#app/components/forms/date-time-input.tsx";
import { Notice, useOnAnswer } from "#app/components/forms/notice.tsx";
import { authMeta } from "#app/lib/auth-meta.ts";
import {
  calendarHref,
  calendarRange,
  dayOf,
  formatCalendarDay,
  hourOf,
  instantOf,
  isCalendarDay,
  isCalendarView,
  neighbours,
  timeOf,
  wallTimeOf,
  type CalendarView,
} from "#domain/calendar.ts";
import { asText } from "#domain/content-form.ts";
import { ALL_CONTENT_TYPES, definitionOf, type ContentType } from "#domain/content-types/index.ts";
import type { FormAnswer } from "#domain/form-answer.ts";
import { formatDate } from "#domain/format.ts";
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

const keyOf = (item: { type: string; id: number }) => `${item.type}-${item.id}`;

type Moved = { key: string; title: string; publish_date: string; status: string };
type MoveAnswer = FormAnswer<"publish_date", string> & { key?: string; moved?: Moved };

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

type Loaded = Route.ComponentProps["loaderData"];
type Item = Loaded["items"][number];

/** What a refused move says (translation keys), by the answer's code. */
function failureOf(answer: MoveAnswer): string {
  if (answer.ok) return "";
  const field = answer.fields?.publish_date;
  switch (answer.formError) {
    case "CONFLICT":
      return "calendar.conflict";
    case "NOT_FOUND":
      return "calendar.notFound";
    case "INVALID":
      return "calendar.invalidTime";
    case "VALIDATION":
      return field === "calendar.draftNotMoved" ? field : "calendar.fixFirst";
    case "PERMISSION_NEEDED":
      return "admin.permissionNeeded";
    case "PUBLISH_PERMISSION":
      return "rights.publishNeeded";
    case "NOT_YOUR_ITEM":
      return "rights.notYours";
    default:
      return "calendar.failed";
  }
}

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

const pad = (n: number) => String(n).padStart(2, "0");

export default function CalendarPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language as Language) || "ar";
  const { view, day, days, today, items, truncated, loadFailed, canMove } = loaderData;
  const fetcher = useFetcher<typeof action>();
  const revalidator = useRevalidator();
  // The item being moved in the dialog, and when the dialog opened (what "a time gone" is measured against).
  const [moving, setMoving] = useState<{ item: Item; now: number } | null>(null);
  const [notice, setNotice] = useState<MoveAnswer | null>((actionData as MoveAnswer | undefined) ?? null);
  const [dragging, setDragging] = useState<string | null>(null);
  const canDrag = useFinePointer() && canMove;

  useOnAnswer(actionData as MoveAnswer | undefined, setNotice);
  useOnAnswer(fetcher.data as MoveAnswer | undefined, (answer) => {
    // A time that is not one stays in the dialog, beside the field; anything else closes it and is told on the page.
    if (!answer.ok && answer.formError === "INVALID") return;
    setMoving(null);
    setNotice(answer);
    // After a refusal the calendar is read again (a conflict: the item's current time); a success revalidates by itself.
    if (!answer.ok) void revalidator.revalidate();
  });

  const { previous, next } = neighbours(view, day);
  const itemsOf = (d: string) => items.filter((i) => dayOf(new Date(i.publish_date)) === d);
  const heading =
    view === "week"
      ? t("calendar.weekRange", { from: formatCalendarDay(days[0], lang, "date"), to: formatCalendarDay(days[6], lang, "date") })
      : formatCalendarDay(day, lang, "full");
  const openMove = (item: Item) => () => {
    setNotice(null);
    setMoving({ item, now: Date.now() });
  };
  const submitMove = (item: Item, wall: string) => {
    setNotice(null);
    void fetcher.submit({ intent: "move", type: item.type, id: String(item.id), updated_at: item.updated_at, publish_date: wall }, { method: "post" });
  };
  /** A drop on a day (week view: the same time that day) or an hour (day view: the same minutes at that hour). */
  const dropOn = (target: { day: string; hour?: number }) => ({
    onDragOver: (event: DragEvent) => {
      if (dragging) event.preventDefault();
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      const item = items.find((i) => keyOf(i) === event.dataTransfer.getData("text/plain"));
      setDragging(null);
      if (!item) return;
      const time = timeOf(new Date(item.publish_date));
      const wall = `${target.day}T${target.hour === undefined ? time : `${pad(target.hour)}:${time.slice(3)}`}`;
      if (wall !== wallTimeOf(new Date(item.publish_date))) submitMove(item, wall);
    },
    "data-drop-target": dragging ? "on" : undefined,
  });

  const entry = (item: Item) => {
    const key = keyOf(item);
    const at = new Date(item.publish_date);
    return (
      <li
        key={key}
        className={`rounded-md border border-sand-200 bg-white p-2 text-sm shadow-sm ${dragging === key ? "opacity-50" : ""}`}
        data-testid="calendar-item"
        data-key={key}
        data-type={item.type}
        data-id={item.id}
        data-status={item.status}
        data-day={dayOf(at)}
        data-time={timeOf(at)}
        draggable={canDrag || undefined}
        onDragStart={(event) => {
          event.dataTransfer.setData("text/plain", key);
          event.dataTransfer.effectAllowed = "move";
          setDragging(key);
        }}
        onDragEnd={() => setDragging(null)}
      >
        <div className="flex flex-wrap items-center gap-1.5">
          <time dateTime={item.publish_date} className="font-bold tabular-nums" dir="ltr" data-testid="calendar-time">
            {timeOf(at)}
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
            onClick={openMove(item)}
            className="mt-1 inline-block rounded border border-sand-300 px-2 py-1 text-xs font-bold hover:bg-sand-100"
            data-testid="calendar-move"
          >
            {t("calendar.move")}
            <span className="sr-only"> {item.title}</span>
          </button>
        )}
      </li>
    );
  };

  return (
    <div className="space-y-5" data-testid="calendar-page" data-view={view} data-date={day}>
      <header className="space-y-1">
        <h1 className="text-2xl font-bold">{t("calendar.title")}</h1>
        <p className="text-sm text-ink-soft">{t("calendar.intro")}</p>
      </header>

      <nav aria-label={t("calendar.navigation")} className="flex flex-wrap items-center gap-2" data-testid="calendar-nav">
        <Link to={calendarHref(view, previous)} className={cancelButtonClass} data-testid="calendar-previous" prefetch="intent">
          {t(view === "week" ? "calendar.previousWeek" : "calendar.previousDay")}
        </Link>
        <Link
          to={calendarHref(view, today)}
          className={cancelButtonClass}
          data-testid="calendar-today"
          aria-current={days.includes(today) ? "date" : undefined}
        >
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

      {view === "week" ? (
        <ol className="grid gap-3 lg:grid-cols-7" data-testid="calendar-week">
          {days.map((d) => {
            const own = itemsOf(d);
            return (
              <li
                key={d}
                className={`min-w-0 rounded-lg border p-2 ${d === today ? "border-desert-500 bg-desert-50" : "border-sand-200 bg-sand-50"} data-[drop-target=on]:outline-dashed data-[drop-target=on]:outline-2 data-[drop-target=on]:outline-desert-500`}
                data-testid="calendar-day"
                data-day={d}
                {...dropOn({ day: d })}
              >
                <h3 className="mb-2 text-sm font-bold">
                  <Link to={calendarHref("day", d)} className="hover:underline" aria-current={d === today ? "date" : undefined} data-testid="calendar-day-link">
                    {formatCalendarDay(d, lang)}
                  </Link>
                </h3>
                {own.length ? <ul className="space-y-2">{own.map(entry)}</ul> : <p className="text-xs text-ink-soft">{t("calendar.emptyDay")}</p>}
              </li>
            );
          })}
        </ol>
      ) : (
        <ol className="divide-y divide-sand-200 rounded-lg border border-sand-200 bg-white" data-testid="calendar-hours">
          {Array.from({ length: 24 }, (_, hour) => {
            const own = itemsOf(day).filter((i) => hourOf(new Date(i.publish_date)) === hour);
            return (
              <li
                key={hour}
                className="flex gap-3 p-2 data-[drop-target=on]:bg-desert-50"
                data-testid="calendar-hour"
                data-hour={hour}
                {...dropOn({ day, hour })}
              >
                <span className="w-12 shrink-0 pt-2 text-sm tabular-nums text-ink-soft" dir="ltr">{`${pad(hour)}:00`}</span>
                {own.length ? <ul className="min-w-0 flex-1 space-y-2">{own.map(entry)}</ul> : <span className="sr-only">{t("calendar.emptyHour")}</span>}
              </li>
            );
          })}
        </ol>
      )}
      {!loadFailed && items.length === 0 && (
        <p className="text-sm text-ink-soft" data-testid="calendar-empty">
          {t(view === "week" ? "calendar.emptyWeek" : "calendar.emptyDay")}
        </p>
      )}

      <ModalDialog
        open={moving !== null}
        onClose={() => setMoving(null)}
        labelledBy="calendar-move-title"
        testId="calendar-move-dialog"
        width={DIALOG_WIDTH.medium}
      >
        {moving && (
          <>
            <h2 id="calendar-move-title" className="mb-3 text-lg font-bold">
              {t("calendar.moveTitle")}
            </h2>
            <MoveForm item={moving.item} now={moving.now} answer={(fetcher.data as MoveAnswer | undefined) ?? null} fetcher={fetcher} />
          </>
        )}
      </ModalDialog>
    </div>
  );
}

/** Dragging is a desktop enhancement: a fine pointer (a mouse). Phones and keyboards use "move"; the server draws no dragging. */
function useFinePointer(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia("(pointer: fine)");
      query.addEventListener("change", changed);
      return () => query.removeEventListener("change", changed);
    },
    () => window.matchMedia("(pointer: fine)").matches,
    () => false,
  );
}

type Fetcher = ReturnType<typeof useFetcher<typeof action>>;

/** The move form: the item, its new time in the newsroom's time, and what that time means (published at once, or then). */
function MoveForm({ item, now, answer, fetcher }: { item: Item; now: number; answer: MoveAnswer | null; fetcher: Fetcher }) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState(() => wallTimeOf(new Date(item.publish_date)));
  const at = instantOf(value);
  const invalid = answer && !answer.ok && answer.key === keyOf(item) && answer.formError === "INVALID";
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" className="space-y-4" data-testid="calendar-move-form">
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="type" value={item.type} />
      <input type="hidden" name="id" value={item.id} />
      <input type="hidden" name="updated_at" value={item.updated_at} />
      <p className="font-bold" dir="auto" data-testid="calendar-move-item">
        {item.title}
      </p>
      <div className="space-y-1">
        <p id={`${id}-label`} className="text-sm font-bold">
          {t("calendar.newTime")}
        </p>
        <DateTimeInput
          name="publish_date"
          mode="datetime"
          defaultValue={value}
          required
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-hint`}
          aria-invalid={invalid || undefined}
          onValueChange={setValue}
          data-testid="calendar-move-time"
        />
        <p
          id={`${id}-hint`}
          className={`text-sm ${invalid || !at ? "text-red-700" : "text-ink-soft"}`}
          data-testid="calendar-move-hint"
          role={invalid ? "alert" : undefined}
        >
          {invalid || !at ? t("calendar.invalidTime") : at.getTime() <= now ? t("calendar.pastHint") : t("calendar.futureHint")}
        </p>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <CloseDialogButton testId="calendar-move-cancel" />
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-desert-600 px-4 py-2 text-sm font-bold text-white hover:bg-desert-700 disabled:opacity-60"
          data-testid="calendar-move-save"
        >
          {busy ? t("admin.saving") : t("calendar.save")}
        </button>
      </div>
    </fetcher.Form>
  );
}

/** The answer of the last move, on the page: where the item went (a link to that day when it left this view), or why it did not. */
function MoveNotice({ answer, view, days }: { answer: MoveAnswer; view: CalendarView; days: readonly string[] }) {
  const { t, i18n } = useTranslation();
  const lang = (i18n.language as Language) || "ar";
  if (!answer.ok || !answer.moved) {
    return (
      <Notice tone="error" testId="calendar-move-failed" status={answer.ok ? undefined : answer.formError}>
        {t(failureOf(answer))}
      </Notice>
    );
  }
  const { moved } = answer;
  const movedDay = dayOf(new Date(moved.publish_date));
  return (
    <Notice tone="success" testId="calendar-moved" status={moved.status}>
      {t(moved.status === "scheduled" ? "calendar.movedScheduled" : "calendar.movedPublished", {
        title: moved.title,
        when: formatDate(moved.publish_date, lang, "dateTime"),
      })}
      {!days.includes(movedDay) && (
        <>
          {" "}
          <Link to={calendarHref(view, movedDay)} className="font-bold underline" data-testid="calendar-moved-link">
            {t("calendar.showThere")}
          </Link>
        </>
      )}
    </Notice>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} />;
}
