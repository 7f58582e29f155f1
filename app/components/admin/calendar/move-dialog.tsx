import { useId, useState } from "react";
import { Link, type FetcherWithComponents } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { CloseDialogButton, DIALOG_WIDTH, ModalDialog } from "#app/components/admin/modal-dialog.tsx";
import { DateTimeInput } from "#app/components/forms/date-time-input.tsx";
import { Notice } from "#app/components/forms/notice.tsx";
import { calendarHref, dayOf, instantOf, wallTimeOf, type CalendarView } from "#domain/calendar.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";
import type { CalendarItem } from "#server/content/calendar.server.ts";
import { keyOf, type MoveAnswer } from "./move-answer.ts";

type Fetcher = FetcherWithComponents<MoveAnswer>;
type Moving = { item: CalendarItem; now: number } | null;

/** The dialog that moves one item (opened by its "move" button), with the answer of the last move. */
export function MoveDialog({ moving, onClose, fetcher }: { moving: Moving; onClose: () => void; fetcher: Fetcher }) {
  const { t } = useTranslation();
  return (
    <ModalDialog open={moving !== null} onClose={onClose} labelledBy="calendar-move-title" testId="calendar-move-dialog" width={DIALOG_WIDTH.medium}>
      {moving && (
        <>
          <h2 id="calendar-move-title" className="mb-3 text-lg font-bold">
            {t("calendar.moveTitle")}
          </h2>
          <MoveForm item={moving.item} now={moving.now} answer={fetcher.data ?? null} fetcher={fetcher} />
        </>
      )}
    </ModalDialog>
  );
}

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

/** The move form: the item, its new time in the newsroom's time, and what that time means (published at once, or then). */
function MoveForm({ item, now, answer, fetcher }: { item: CalendarItem; now: number; answer: MoveAnswer | null; fetcher: Fetcher }) {
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
export function MoveNotice({ answer, view, days }: { answer: MoveAnswer; view: CalendarView; days: readonly string[] }) {
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
