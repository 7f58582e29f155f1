import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import type { FieldDefinition } from "#domain/content-types/index.ts";
import { AUTHORS_MAX } from "#domain/content-types/define.ts";
import { authorName, type BylineAuthor } from "#domain/authors.ts";
import type { Language } from "#domain/language.ts";
import { formatNumber } from "#domain/format.ts";
import { textProps } from "#domain/localized.ts";

type Props = {
  field: FieldDefinition;
  /** The input's text: the chosen profiles' ids in byline order, comma-separated (domain/content-form.ts relationText). */
  value: string;
  id: string;
  invalid: boolean;
  describedBy?: string;
  labelId?: string;
};

type Chosen = Pick<BylineAuthor, "id" | "name" | "name_fr" | "name_en"> & { photo_url?: string | null };
/** A line of the suggestions: a profile to pick, or the typed name to add as a new profile. */
type Entry = { kind: "pick"; author: Chosen } | { kind: "create"; author: null };

const SUGGESTIONS = 8;
const idsOf = (text: string) => [
  ...new Set(
    text
      .split(/[,\u060C\s]+/)
      .filter((s) => /^[1-9]\d{0,8}$/.test(s))
      .map(Number),
  ),
];

async function readJson<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(String(response.status));
  return (await response.json()) as T;
}

/**
 * The byline picker of the content form (issue 29, decision 0121): the chosen author profiles in byline order
 * (each can move earlier or later, or be removed), and a search-as-you-type box over the profiles
 * (GET /api/admin/authors?q=) that also offers to add the typed name as a new profile, a guest writer
 * (POST /api/admin/authors). It posts the ids as the `authors` input; without JavaScript that input is the
 * text box of ids it replaces. A combobox with a listbox: arrows, Enter and Escape work as usual.
 */
export function AuthorsField({ field, value, id, invalid, describedBy, labelId }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { chosen, setChosen, ids, hidden } = useChosen(value);
  const [query, setQuery] = useState("");
  const { options, setOptions, open, setOpen, active, setActive } = useSuggestions(query);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  const chosenIds = new Set(chosen.map((c) => c.id));
  const offered = options.filter((o) => !chosenIds.has(o.id));
  const typed = query.trim().replace(/\s+/g, " ");
  const exact = options.some((o) => [o.name, o.name_fr, o.name_en].some((n) => n && n.toLowerCase() === typed.toLowerCase()));
  const canCreate = typed.length >= 2 && !exact;
  const entries: Entry[] = [...offered.map((o) => ({ kind: "pick" as const, author: o })), ...(canCreate ? [{ kind: "create" as const, author: null }] : [])];
  const full = chosen.length >= AUTHORS_MAX;

  function add(author: Chosen) {
    if (chosenIds.has(author.id) || full) return;
    setChosen((c) => [...c, author]);
    setQuery("");
    setOptions([]);
    setOpen(false);
    setActive(-1);
    setStatus(t("authors.picker.added", { name: authorName(lang, author) }));
    inputRef.current?.focus();
  }

  async function create() {
    if (!canCreate || busy) return;
    setBusy(true);
    try {
      const made = await fetch("/api/admin/authors", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ name: typed }),
      }).then((r) => readJson<Chosen>(r));
      add(made);
    } catch {
      setStatus(t("authors.picker.createFailed"));
    } finally {
      setBusy(false);
    }
  }

  function choose(index: number) {
    const entry = entries[index];
    if (!entry) return;
    if (entry.kind === "pick") add(entry.author);
    else void create();
  }

  function move(index: number, by: -1 | 1) {
    setChosen((c) => {
      const next = [...c];
      const [one] = next.splice(index, 1);
      next.splice(index + by, 0, one);
      return next;
    });
    setStatus(t("authors.picker.moved", { name: authorName(lang, chosen[index]), position: index + by + 1 }));
  }

  function remove(index: number) {
    setStatus(t("authors.picker.removed", { name: authorName(lang, chosen[index]) }));
    setChosen((c) => c.filter((_, i) => i !== index));
    inputRef.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setOpen(true);
      setActive((a) => (entries.length ? (a + 1) % entries.length : -1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((a) => (entries.length ? (a - 1 + entries.length) % entries.length : -1));
    } else if (event.key === "Enter") {
      // Enter picks a suggestion; it never submits the whole form from here.
      event.preventDefault();
      if (open && active >= 0) choose(active);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
    }
  }

  return (
    <div className="space-y-2" data-testid="authors-field">
      <input ref={hidden} type="hidden" name={field.name} value={ids} data-testid={`input-${field.name}`} />
      <ChosenAuthors chosen={chosen} lang={lang} onMove={move} onRemove={remove} />
      <div className="relative">
        <input
          ref={inputRef}
          id={id}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open && entries.length > 0}
          aria-controls={listId}
          aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
          aria-labelledby={labelId}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          value={query}
          disabled={full}
          placeholder={t(full ? "authors.picker.full" : "authors.picker.placeholder")}
          onChange={(e) => {
            setQuery(e.target.value);
            if (!e.target.value.trim()) {
              setOptions([]);
              setOpen(false);
            }
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          onFocus={() => options.length && setOpen(true)}
          dir="auto"
          autoComplete="off"
          maxLength={120}
          className={`block h-11 w-full rounded-md border bg-white px-3 ${invalid ? "border-red-700" : "border-sand-300"} focus:border-desert-600 focus:outline-none focus:ring-2 focus:ring-desert-500/40`}
          data-testid="authors-search"
        />
        {open && entries.length > 0 && <AuthorOptions listId={listId} entries={entries} active={active} typed={typed} lang={lang} onChoose={choose} />}
      </div>
      <p className="sr-only" role="status" aria-live="polite">
        {status}
      </p>
    </div>
  );
}

/** The chosen profiles, from the input's ids (their names read once); a changed byline is announced to the form. */
function useChosen(value: string) {
  const [chosen, setChosen] = useState<Chosen[]>(() => idsOf(value).map((n) => ({ id: n, name: `#${n}`, name_fr: null, name_en: null })));
  const hidden = useRef<HTMLInputElement>(null);
  const ids = chosen.map((c) => c.id).join(",");
  const firstIds = useRef(ids);

  // A changed byline is a change of the form: its checks, the unsaved-changes guard and the draft keeper hear it.
  useEffect(() => {
    if (ids === firstIds.current) return;
    firstIds.current = ids;
    hidden.current?.dispatchEvent(new Event("input", { bubbles: true }));
  }, [ids]);

  // The names of the profiles the item already names.
  useEffect(() => {
    const ids = idsOf(value);
    if (!ids.length) return;
    let live = true;
    fetch(`/api/admin/authors?ids=${ids.join(",")}`, { headers: { accept: "application/json" } })
      .then((r) => readJson<{ authors: Chosen[] }>(r))
      .then(({ authors }) => {
        if (!live) return;
        const byId = new Map(authors.map((a) => [a.id, a]));
        setChosen((current) => current.map((c) => byId.get(c.id) ?? c));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [value]);
  return { chosen, setChosen, ids, hidden };
}

/** Suggestions as the editor types (GET /api/admin/authors?q=), a moment after the last key. */
function useSuggestions(query: string) {
  const [options, setOptions] = useState<Chosen[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useEffect(() => {
    const q = query.trim();
    if (!q) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/admin/authors?${new URLSearchParams({ q, per_page: String(SUGGESTIONS) })}`, {
        signal: controller.signal,
        headers: { accept: "application/json" },
      })
        .then((r) => readJson<{ authors: Chosen[] }>(r))
        .then(({ authors }) => {
          setOptions(authors);
          setActive(authors.length ? 0 : -1);
          setOpen(true);
        })
        .catch(() => undefined);
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);
  return { options, setOptions, open, setOpen, active, setActive };
}

const button = "min-h-11 min-w-11 rounded-md border border-sand-300 px-2 text-sm font-bold hover:bg-sand-100 disabled:opacity-40";

type ChosenProps = { chosen: Chosen[]; lang: Language; onMove: (index: number, by: -1 | 1) => void; onRemove: (index: number) => void };

/** The byline in its order, each profile with earlier, later and remove. */
function ChosenAuthors({ chosen, lang, onMove, onRemove }: ChosenProps) {
  const { t } = useTranslation();
  if (chosen.length === 0) return null;
  return (
    <ol className="space-y-2" aria-label={t("authors.picker.chosen")} data-testid="authors-chosen">
      {chosen.map((c, i) => {
        const name = authorName(lang, c);
        return (
          <li
            key={c.id}
            className="flex flex-wrap items-center gap-2 rounded-md border border-sand-200 bg-sand-50 px-3 py-1"
            data-testid="authors-chip"
            data-id={c.id}
          >
            <span className="text-sm text-ink-soft" aria-hidden="true">
              {formatNumber(lang, i + 1)}.
            </span>
            <bdi className="flex-1 font-bold" {...textProps(lang, name)}>
              {name}
            </bdi>
            <button type="button" className={button} disabled={i === 0} onClick={() => onMove(i, -1)} aria-label={`${t("authors.picker.earlier")} ${name}`}>
              {t("authors.picker.earlier")}
            </button>
            <button
              type="button"
              className={button}
              disabled={i === chosen.length - 1}
              onClick={() => onMove(i, 1)}
              aria-label={`${t("authors.picker.later")} ${name}`}
            >
              {t("authors.picker.later")}
            </button>
            <button
              type="button"
              className={`${button} text-red-700`}
              onClick={() => onRemove(i)}
              aria-label={`${t("authors.picker.remove")} ${name}`}
              data-testid="authors-remove"
            >
              {t("authors.picker.remove")}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

type OptionsProps = { listId: string; entries: Entry[]; active: number; typed: string; lang: Language; onChoose: (index: number) => void };

/** The combobox's listbox: the profiles found, and "add … as a new profile". */
function AuthorOptions({ listId, entries, active, typed, lang, onChoose }: OptionsProps) {
  const { t } = useTranslation();
  return (
    <ul
      id={listId}
      role="listbox"
      aria-label={t("authors.picker.suggestions")}
      className="absolute inset-x-0 z-20 mt-1 max-h-72 overflow-auto rounded-md border border-sand-200 bg-white shadow-lg"
      data-testid="authors-options"
    >
      {entries.map((entry, i) => (
        // The keyboard works on the combobox (arrows, Enter: aria-activedescendant); a tap or click picks here.
        // eslint-disable-next-line jsx-a11y/click-events-have-key-events
        <li
          key={entry.kind === "pick" ? entry.author.id : "create"}
          id={`${listId}-${i}`}
          role="option"
          aria-selected={i === active}
          className={`cursor-pointer px-3 py-3 ${i === active ? "bg-desert-50 font-bold" : ""}`}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onChoose(i)}
          data-testid={entry.kind === "pick" ? "authors-option" : "authors-create"}
        >
          {entry.kind === "pick" ? (
            <bdi {...textProps(lang, authorName(lang, entry.author))}>{authorName(lang, entry.author)}</bdi>
          ) : (
            t("authors.picker.create", { name: typed })
          )}
        </li>
      ))}
    </ul>
  );
}
