import { useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from "react";
import type { TFunction } from "i18next";
import type { ControlProps } from "#app/components/forms/field.tsx";
import { useCount, useTranslation } from "#app/lib/i18n.ts";
import { TAG_NAME_MAX, TAG_SEPARATORS, TAG_SUGGESTIONS_DEFAULT, TAGS_MAX, tagMatchRank, tagSameKey, tidyTagName, type TagSuggestion } from "#domain/tags.ts";

/** Wait after the last key before asking for suggestions: one request per pause, not per letter. */
const SUGGEST_DELAY_MS = 150;

/** The names a form value holds ("a,b" or "a، b"): tidied, each tag once (tagSameKey: «تراث» is «التراث»). */
function namesOf(value: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const part of value.split(TAG_SEPARATORS)) {
    const name = tidyTagName(part);
    const key = tagSameKey(name);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    names.push(name);
  }
  return names;
}

type Option = { kind: "tag"; tag: TagSuggestion } | { kind: "create"; name: string };

/** The chips with names added (each tag once, TAGS_MAX at most), and what to say of the last one. */
function withNames(chips: string[], names: string[], t: TFunction): { next: string[]; said: string } {
  const next = [...chips];
  const keys = new Set(next.map(tagSameKey));
  let said = "";
  for (const raw of names) {
    const tag = tidyTagName(raw).slice(0, TAG_NAME_MAX).trim();
    const key = tagSameKey(tag);
    if (!key) continue;
    if (keys.has(key)) said = t("newsroom.tagInput.already", { name: tag });
    else if (next.length >= TAGS_MAX) said = t("newsroom.tagInput.full");
    else {
      next.push(tag);
      keys.add(key);
      said = t("newsroom.tagInput.added", { name: tag });
    }
  }
  return { next, said };
}

/**
 * The item form's tag input (issue 29, decision 0122): chips, made as an editor types (Enter, a comma or the
 * Arabic comma «،» ends a tag; a pasted list is split), with suggestions of the tags that exist as they type
 * (GET /api/admin/tags?q=, matched as the search does: «الانتخابات» finds «الإنتخابات», with or without «ال»).
 * Keyboard: arrows move through the suggestions, Enter takes one, Escape closes them, Backspace in the empty input
 * removes the last chip. For screen readers it is the ARIA combobox with a listbox, and what changed is announced.
 * The form posts the names in one hidden input, comma-separated, with what is still being typed.
 */
export function TagsField({ name, value, control }: { name: string; value: string; control: ControlProps }) {
  const { t } = useTranslation();
  const [chips, setChips] = useState(() => namesOf(value));
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [announcement, setAnnouncement] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const hidden = useRef<HTMLInputElement>(null);
  const changed = useRef(false);
  const uid = useId();
  const listId = `${uid}-list`;
  const keysId = `${uid}-keys`;

  const posted = [...chips, tidyTagName(text)].filter(Boolean).join(",");
  // The form hears every change of the posted value (its check of the field, unsaved-work tracking).
  useEffect(() => {
    if (!changed.current) return;
    changed.current = false;
    hidden.current?.dispatchEvent(new Event("input", { bubbles: true }));
  }, [posted]);

  const query = tidyTagName(text);
  const [suggestions, setSuggestions] = useTagSuggestions(query, (found) => {
    setActive(-1);
    if (found) setAnnouncement(t("newsroom.tagInput.found", { total: found }));
  });

  const chosen = new Set(chips.map(tagSameKey));
  // Suggestions are for what is typed now; none once the input is empty.
  // (Those of an earlier query, shown until the new ones arrive, only while they still match.)
  const offered = query ? suggestions.filter((s) => tagMatchRank(query, s.name) !== null && !chosen.has(tagSameKey(s.name))) : [];
  // The tag what is typed already is («مخطوطات» is «المخطوطات»): Enter takes it, and "create" is not offered,
  // since the server would reuse it anyway.
  const same = offered.find((s) => tagSameKey(s.name) === tagSameKey(query));
  const exact = same !== undefined || chosen.has(tagSameKey(query));
  const options: Option[] = [...offered.map((tag) => ({ kind: "tag" as const, tag })), ...(query && !exact ? [{ kind: "create" as const, name: query }] : [])];
  const expanded = open && options.length > 0;
  const optionId = (i: number) => `${uid}-option-${i}`;

  /** Adds names as chips (each spelling once, TAGS_MAX at most); says what happened. */
  function add(names: string[]) {
    const { next, said } = withNames(chips, names, t);
    changed.current = true;
    setChips(next);
    setAnnouncement(said);
  }

  function take(option: Option | undefined) {
    if (option) add([option.kind === "tag" ? option.tag.name : option.name]);
    changed.current = true;
    setText("");
    setSuggestions([]);
    setActive(-1);
    setOpen(false);
    input.current?.focus();
  }

  function remove(index: number) {
    const gone = chips[index];
    changed.current = true;
    setChips(chips.filter((_, i) => i !== index));
    setAnnouncement(t("newsroom.tagInput.removed", { name: gone }));
    input.current?.focus();
  }

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const typed = event.currentTarget.value;
    changed.current = true;
    // A separator typed or pasted ends the tags before it; what follows the last one is still being typed.
    if (TAG_SEPARATORS.test(typed)) {
      const parts = typed.split(TAG_SEPARATORS);
      add(parts.slice(0, -1));
      setText(parts.at(-1)!.trimStart());
      setSuggestions([]);
    } else setText(typed);
    setOpen(true);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        if (!options.length) return;
        event.preventDefault();
        setOpen(true);
        // From the input (-1) through the options and back to the input, either way round.
        const last = options.length - 1;
        setActive((i) => (event.key === "ArrowDown" ? (i >= last ? -1 : i + 1) : i <= -1 ? last : i - 1));
        return;
      }
      case "Enter":
        // Enter ends a tag; with nothing typed it submits the form as usual.
        if (!query && active < 0) return;
        event.preventDefault();
        take(expanded && active >= 0 ? options[active] : same ? { kind: "tag", tag: same } : { kind: "create", name: query });
        return;
      case "Escape":
        if (!expanded) return;
        event.preventDefault();
        setOpen(false);
        setActive(-1);
        return;
      case "Backspace":
        if (text === "" && chips.length) {
          event.preventDefault();
          remove(chips.length - 1);
        }
        return;
    }
  }

  const describedBy = [control["aria-describedby"], keysId].filter(Boolean).join(" ");
  return (
    <div className="relative" data-testid={`tags-field-${name}`}>
      <input ref={hidden} type="hidden" name={name} value={posted} data-testid={`input-${name}`} />
      <div className={`${control.className} flex min-h-11 flex-wrap items-center gap-1.5 py-1.5 focus-within:ring-2 focus-within:ring-desert-500`}>
        <TagChips chips={chips} onRemove={remove} />
        <input
          ref={input}
          id={control.id}
          type="text"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          aria-invalid={control["aria-invalid"]}
          aria-describedby={describedBy}
          autoComplete="off"
          enterKeyHint="enter"
          dir="auto"
          value={text}
          maxLength={TAG_NAME_MAX * 4}
          onChange={onChange}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          className="h-8 min-w-[8rem] flex-1 border-0 bg-transparent px-1 text-base outline-none"
          data-testid="tags-input"
        />
      </div>
      <TagOptions listId={listId} options={options} active={active} expanded={expanded} optionId={optionId} onTake={take} />
      <p id={keysId} className="sr-only">
        {t("newsroom.tagInput.keys")}
      </p>
      <p role="status" aria-live="polite" className="sr-only" data-testid="tags-announcement">
        {announcement}
      </p>
    </div>
  );
}

/**
 * Suggestions for what is typed, after a pause; a newer query cancels the one on its way. `found` hears how many
 * came back.
 */
function useTagSuggestions(query: string, found: (total: number) => void) {
  const [suggestions, setSuggestions] = useState<TagSuggestion[]>([]);
  const heard = useRef(found);
  useEffect(() => {
    heard.current = found;
  });
  useEffect(() => {
    if (!query) return;
    const abort = new AbortController();
    const timer = window.setTimeout(async () => {
      try {
        const res = await fetch(`/api/admin/tags?${new URLSearchParams({ q: query.slice(0, TAG_NAME_MAX), per_page: String(TAG_SUGGESTIONS_DEFAULT) })}`, {
          signal: abort.signal,
          headers: { Accept: "application/json" },
        });
        if (!res.ok) return;
        const body = (await res.json()) as { tags?: TagSuggestion[] };
        setSuggestions(body.tags ?? []);
        heard.current(body.tags?.length ?? 0);
      } catch {
        // Cancelled or offline: no suggestions; typing a new tag still works.
      }
    }, SUGGEST_DELAY_MS);
    return () => {
      abort.abort();
      window.clearTimeout(timer);
    };
  }, [query]);
  return [suggestions, setSuggestions] as const;
}

/** The tags chosen, each with its remove button. */
function TagChips({ chips, onRemove }: { chips: string[]; onRemove: (index: number) => void }) {
  const { t } = useTranslation();
  if (chips.length === 0) return null;
  return (
    <ul className="contents" aria-label={t("newsroom.f.tags")}>
      {chips.map((chip, i) => (
        <li
          key={tagSameKey(chip)}
          className="inline-flex max-w-full items-center gap-1 rounded-full bg-sand-100 ps-3 pe-1 text-sm font-bold"
          data-testid="tag-chip"
        >
          <span dir="auto" className="truncate">
            {chip}
          </span>
          <button
            type="button"
            onClick={() => onRemove(i)}
            aria-label={t("newsroom.tagInput.remove", { name: chip })}
            className="inline-flex h-7 w-7 items-center justify-center rounded-full text-ink-soft hover:bg-sand-200 hover:text-ink"
            data-testid="tag-chip-remove"
          >
            <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M4 4l8 8M12 4l-8 8" />
            </svg>
          </button>
        </li>
      ))}
    </ul>
  );
}

type OptionsProps = { listId: string; options: Option[]; active: number; expanded: boolean; optionId: (i: number) => string; onTake: (option: Option) => void };

/** The combobox's listbox: the tags that match (with how many items carry each), and "create" for a new one. */
function TagOptions({ listId, options, active, expanded, optionId, onTake }: OptionsProps) {
  const { t } = useTranslation();
  const count = useCount();
  return (
    <ul
      id={listId}
      role="listbox"
      aria-label={t("newsroom.tagInput.suggestions")}
      hidden={!expanded}
      className="absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-y-auto rounded-md border border-sand-200 bg-white py-1 shadow-lg"
      data-testid="tags-suggestions"
    >
      {options.map((option, i) => (
        // The keyboard works from the input (aria-activedescendant), as the ARIA combobox pattern has it: options take no focus.
        // eslint-disable-next-line jsx-a11y/click-events-have-key-events
        <li
          key={option.kind === "tag" ? option.tag.id : "create"}
          id={optionId(i)}
          role="option"
          aria-selected={i === active}
          // The input keeps the focus: a press on an option must not blur it first.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onTake(option)}
          className={`flex cursor-pointer items-center justify-between gap-3 px-3 py-2 text-sm ${i === active ? "bg-desert-600 text-white" : "hover:bg-sand-100"}`}
          data-testid={option.kind === "tag" ? "tag-suggestion" : "tag-suggestion-create"}
        >
          {option.kind === "tag" ? (
            <>
              <span dir="auto" className="font-bold">
                {option.tag.name}
              </span>
              {option.tag.count > 0 && (
                <span className={i === active ? "text-white" : "text-ink-soft"}>
                  {t("newsroom.tagInput.uses", { items: count("tags.items", option.tag.count) })}
                </span>
              )}
            </>
          ) : (
            <span>{t("newsroom.tagInput.create", { name: option.name })}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
