/**
 * The parts of an item's revisions page (app/routes/admin/content-revisions.tsx): the lists of saves and
 * autosaves, the two pickers that choose a pair to compare, and the head of each side of the comparison.
 */
import { Form, Link } from "react-router";
import { useTranslation } from "#app/lib/i18n.ts";
import { StatusBadge } from "#app/components/admin/content-table.tsx";
import { RevisionDifferences, type FieldDifference } from "#app/components/admin/revision-diff.tsx";
import { RestoreButton, type RestoreTarget } from "#app/components/admin/revision-restore.tsx";
import type { EditorStatus } from "#domain/content-types/index.ts";
import { formatDate } from "#domain/format.ts";
import type { Language } from "#domain/language.ts";

export type RevisionEntry = { id: number; kind: "save" | "autosave"; created_at: string; author_name: string | null; title?: string | null };
/** One side of a comparison: the revision, the status it recorded, and whether it is the item's current version. */
export type VersionHead = RevisionEntry & { status: EditorStatus; current: boolean };
export type Comparison = { before: VersionHead; after: VersionHead; same: boolean; fields: FieldDifference[] };

/** How a revision is named: its author (or «not set»), and its date with its author, an autosave said as such. */
export function useRevisionLabels() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const nameOf = (r: RevisionEntry) => r.author_name ?? t("admin.notSet");
  const labelOf = (r: RevisionEntry) =>
    `${r.kind === "autosave" ? `${t("newsroom.revisions.autosave")} · ` : ""}${t("newsroom.revisions.entry", { date: formatDate(r.created_at, lang, "dateTime"), name: nameOf(r) })}`;
  const targetOf = (r: RevisionEntry): RestoreTarget => ({ id: r.id, kind: r.kind, label: labelOf(r) });
  return { nameOf, labelOf, targetOf };
}

/** Which side of the comparison a revision is, if any. */
const sideOf = (compare: Comparison | null, revId: number) =>
  compare ? (compare.before.id === revId ? "before" : compare.after.id === revId ? "after" : null) : null;

/** A list of revisions, each a link that compares it (with the current version, or the save before it). */
export function RevisionEntries({
  list,
  testId,
  currentId,
  compare,
}: {
  list: RevisionEntry[];
  testId: string;
  currentId: number | null;
  compare: Comparison | null;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { nameOf } = useRevisionLabels();
  return (
    <ol className="space-y-2" data-testid={testId}>
      {list.map((r) => {
        const side = sideOf(compare, r.id);
        return (
          <li key={r.id}>
            <Link
              to={`?rev=${r.id}`}
              aria-current={side ? "true" : undefined}
              className={`block rounded-lg border px-3 py-2 text-sm ${side ? "border-desert-600 bg-white shadow-sm" : "border-sand-200 bg-white hover:bg-sand-50"}`}
              data-testid="revision"
              data-rev={r.id}
              data-kind={r.kind}
            >
              <span className="flex flex-wrap items-center justify-between gap-x-2">
                <span className="font-bold">{formatDate(r.created_at, lang, "dateTime")}</span>
                {side && <span className="rounded-full bg-sand-100 px-2 text-xs font-bold text-ink">{t(`newsroom.revisions.${side}`)}</span>}
              </span>
              <span className="block text-ink-soft">
                {nameOf(r)}
                {r.id === currentId && <> · {t("newsroom.ui.currentVersion")}</>}
              </span>
              {r.title && (
                <span className="mt-1 block truncate" dir="auto">
                  {r.title}
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ol>
  );
}

type Versions = { saves: RevisionEntry[]; autosaves: RevisionEntry[]; currentId: number | null };

/** One of the two pickers of the comparison form: every save, then every autosave. */
function VersionPicker({
  name,
  label,
  selected,
  saves,
  autosaves,
  currentId,
}: Versions & { name: "from" | "to"; label: string; selected: number | undefined }) {
  const { t } = useTranslation();
  const { labelOf } = useRevisionLabels();
  const option = (r: RevisionEntry) => (
    <option key={r.id} value={r.id}>
      {labelOf(r)}
      {r.id === currentId ? ` · ${t("newsroom.ui.currentVersion")}` : ""}
    </option>
  );
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor={`compare-${name}`} className="mb-1 block text-sm font-bold">
        {label}
      </label>
      <select
        id={`compare-${name}`}
        name={name}
        defaultValue={selected}
        key={selected}
        className="w-full rounded-md border border-sand-300 bg-white px-2 py-2 text-sm"
        data-testid={`compare-${name}`}
      >
        <optgroup label={t("newsroom.revisions.saves")}>{saves.map(option)}</optgroup>
        {autosaves.length > 0 && <optgroup label={t("newsroom.revisions.autosaves")}>{autosaves.map(option)}</optgroup>}
      </select>
    </div>
  );
}

/** One side's head: who saved it when, its status, and a restore button unless it is the current version. */
function VersionHeadCard({
  head,
  side,
  here,
  onRestore,
}: {
  head: VersionHead;
  side: "before" | "after";
  here: string;
  onRestore: (target: RestoreTarget) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { targetOf } = useRevisionLabels();
  return (
    <div className="min-w-0 space-y-2 rounded-lg border border-sand-200 bg-sand-50 p-3" data-testid={`head-${side}`} data-rev={head.id}>
      <p className="text-xs font-bold uppercase text-ink-soft">{t(`newsroom.revisions.${side}`)}</p>
      <p className="text-sm">
        {t(head.kind === "autosave" ? "newsroom.revisions.autosavedBy" : "newsroom.revisions.savedBy", {
          date: formatDate(head.created_at, lang, "dateTime"),
          name: head.author_name ?? t("admin.notSet"),
        })}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={head.status} />
        {head.current && <span className="text-sm font-bold">{t("newsroom.ui.currentVersion")}</span>}
        {!head.current && <RestoreButton target={targetOf(head)} href={`${here}&restore=${head.id}`} onOpen={onRestore} />}
      </div>
    </div>
  );
}

/** The comparison: the pickers, both heads, and what differs (or that there is nothing to compare). */
export function CompareView({
  compare,
  here,
  onRestore,
  ...versions
}: Versions & { compare: Comparison | null; here: string; onRestore: (target: RestoreTarget) => void }) {
  const { t } = useTranslation();
  const { saves, autosaves } = versions;
  const count = saves.length + autosaves.length;
  return (
    <article
      className="min-w-0 space-y-5 rounded-lg border border-sand-200 bg-white p-4 shadow-sm sm:p-6 lg:col-start-2 lg:row-start-1"
      aria-labelledby="compare-heading"
      data-testid="revision-view"
    >
      <h2 id="compare-heading" className="text-lg font-bold">
        {t("newsroom.revisions.compareHeading")}
      </h2>
      {count > 1 && (
        <Form method="get" className="flex flex-col gap-3 sm:flex-row sm:items-end" data-testid="compare-form">
          <VersionPicker name="from" label={t("newsroom.revisions.first")} selected={compare?.before.id} {...versions} />
          <VersionPicker name="to" label={t("newsroom.revisions.second")} selected={compare?.after.id} {...versions} />
          <button
            type="submit"
            className="rounded-md border border-desert-600 px-4 py-2 text-sm font-bold text-desert-700 hover:bg-sand-50"
            data-testid="compare-submit"
          >
            {t("newsroom.revisions.compare")}
          </button>
        </Form>
      )}
      {compare ? (
        <>
          <div className="grid gap-3 md:grid-cols-2">
            <VersionHeadCard head={compare.before} side="before" here={here} onRestore={onRestore} />
            <VersionHeadCard head={compare.after} side="after" here={here} onRestore={onRestore} />
          </div>
          {compare.same ? (
            <p className="rounded-md border border-dashed border-sand-300 px-4 py-6 text-center text-ink-soft" data-testid="same-version">
              {t(count > 1 ? "newsroom.revisions.sameVersion" : "newsroom.revisions.onlyOne")}
            </p>
          ) : (
            <RevisionDifferences fields={compare.fields} />
          )}
        </>
      ) : (
        <p className="rounded-md border border-dashed border-sand-300 px-4 py-6 text-center text-ink-soft" data-testid="only-one">
          {t(saves.length ? "newsroom.revisions.onlyOne" : "newsroom.ui.noRevisions")}
        </p>
      )}
    </article>
  );
}

/** The saves, and apart from them the autosaves of drafts. */
export function RevisionsNav({ saves, autosaves, currentId, compare }: Versions & { compare: Comparison | null }) {
  const { t } = useTranslation();
  return (
    <nav aria-labelledby="saves-heading" className="space-y-5 lg:col-start-1 lg:row-start-1">
      <div className="space-y-2">
        <h2 id="saves-heading" className="font-bold">
          {t("newsroom.revisions.saves")}
        </h2>
        {saves.length === 0 ? (
          <p className="text-ink-soft">{t("newsroom.ui.noRevisions")}</p>
        ) : (
          <RevisionEntries list={saves} testId="revision-list" currentId={currentId} compare={compare} />
        )}
      </div>
      {autosaves.length > 0 && (
        <div className="space-y-2">
          <h2 className="font-bold">{t("newsroom.revisions.autosaves")}</h2>
          <p className="text-xs text-ink-soft">{t("newsroom.revisions.autosavesHint")}</p>
          <RevisionEntries list={autosaves} testId="autosave-list" currentId={currentId} compare={compare} />
        </div>
      )}
    </nav>
  );
}
