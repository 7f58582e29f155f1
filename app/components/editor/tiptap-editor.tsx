/**
 * The newsroom's rich-text editor (Tiptap), right to left. Loaded on demand by rich-text-field.tsx, so its
 * code (ProseMirror and the extensions, the bulk of the back-office's JavaScript) stays out of every other
 * page. It edits HTML and posts it through a hidden input; the server sanitises what arrives.
 */
import { useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import Link from "@tiptap/extension-link";
import Image from "@tiptap/extension-image";
import { useTranslation } from "#app/lib/i18n.ts";
import { LibraryPicker } from "#app/components/admin/library-picker.tsx";
import { localizedText, type LibraryFile } from "#domain/library.ts";
import { ImageIcon, LinkIcon, ListBulletIcon, ListOrderedIcon, QuoteIcon, RedoIcon, UndoIcon } from "#app/components/admin/icons.tsx";

export type TiptapEditorProps = {
  name: string;
  id: string;
  labelId: string;
  initialHtml: string;
  invalid: boolean;
  describedBy?: string;
  onEdited?: (html: string) => void;
};

/** A link or an image source: http(s), or a path on this site. */
const SAFE_URL = /^(?:https?:\/\/[^\s]+|\/(?!\/)[^\s]*)$/i;

/** The body's look while editing, close to the article page (lists and headings need their styles back). */
const editableClass = [
  "min-h-64 w-full rounded-b-md px-4 py-3 text-start text-lg leading-loose outline-none",
  "[&_h2]:mt-4 [&_h2]:text-xl [&_h2]:font-bold [&_h3]:mt-3 [&_h3]:text-lg [&_h3]:font-bold",
  "[&_ul]:list-disc [&_ul]:ps-6 [&_ol]:list-decimal [&_ol]:ps-6 [&_p]:my-2",
  "[&_blockquote]:border-s-4 [&_blockquote]:border-sand-300 [&_blockquote]:ps-4 [&_blockquote]:text-ink-soft",
  "[&_a]:text-desert-700 [&_a]:underline [&_img]:my-3 [&_img]:max-h-80 [&_img]:rounded-md",
  "[&_.ProseMirror-selectednode]:ring-2 [&_.ProseMirror-selectednode]:ring-desert-500",
].join(" ");

const htmlOf = (editor: Editor) => (editor.isEmpty ? "" : editor.getHTML());

export default function TiptapEditor({ name, id, labelId, initialHtml, invalid, describedBy, onEdited }: TiptapEditorProps) {
  const [html, setHtml] = useState(initialHtml);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        code: false,
        codeBlock: false,
        horizontalRule: false,
        strike: false,
        underline: false,
        link: false,
      }),
      Link.configure({
        openOnClick: false,
        autolink: true,
        defaultProtocol: "https",
        isAllowedUri: (url) => SAFE_URL.test(url),
        // No rel or target of its own: a link carries what the editor chose in the link panel (issue 29), and
        // a stored link keeps its own (the server's sanitizer allows nofollow, sponsored, ugc, noopener, noreferrer).
        HTMLAttributes: { rel: null, target: null },
      }),
      Image.configure({ inline: false, allowBase64: false }),
    ],
    content: initialHtml,
    // Client-only: this module is never rendered on the server.
    immediatelyRender: true,
    editorProps: {
      attributes: {
        id,
        dir: "rtl",
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
        "data-testid": `editor-${name}`,
        class: editableClass,
      },
    },
    onUpdate: ({ editor: e }) => {
      const next = htmlOf(e);
      setHtml(next);
      onEdited?.(next);
    },
  });

  return (
    <div
      className={`rounded-md border bg-white focus-within:ring-2 focus-within:ring-desert-500 ${invalid ? "border-red-600" : "border-sand-300"}`}
      data-editor="rich"
    >
      {editor && <Toolbar editor={editor} lang={name.endsWith("_fr") ? "fr" : "ar"} />}
      <EditorContent editor={editor} />
      <input type="hidden" name={name} value={html} data-testid={`input-${name}`} />
    </div>
  );
}

type Panel = "link" | "image" | null;

function Toolbar({ editor, lang }: { editor: Editor; lang: "ar" | "fr" }) {
  const { t } = useTranslation();
  const [panel, setPanel] = useState<Panel>(null);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      h2: e.isActive("heading", { level: 2 }),
      h3: e.isActive("heading", { level: 3 }),
      bulletList: e.isActive("bulletList"),
      orderedList: e.isActive("orderedList"),
      blockquote: e.isActive("blockquote"),
      link: e.isActive("link"),
      href: (e.getAttributes("link").href as string | undefined) ?? "",
      target: (e.getAttributes("link").target as string | null | undefined) ?? null,
      rel: (e.getAttributes("link").rel as string | null | undefined) ?? null,
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  const toggle = (panelName: Exclude<Panel, null>) => setPanel((p) => (p === panelName ? null : panelName));

  return (
    <div className="border-b border-sand-200 bg-sand-50">
      <div role="toolbar" aria-label={t("newsroom.ui.editor.toolbar")} className="flex flex-wrap items-center gap-1 p-1.5">
        <ToolButton label={t("newsroom.ui.editor.bold")} pressed={state.bold} onClick={() => chain().toggleBold().run()} testId="tool-bold">
          <span className="font-bold">B</span>
        </ToolButton>
        <ToolButton label={t("newsroom.ui.editor.italic")} pressed={state.italic} onClick={() => chain().toggleItalic().run()} testId="tool-italic">
          <span className="font-serif italic">I</span>
        </ToolButton>
        <Separator />
        {/* The name starts with the visible "H2": voice control users say what they see (WCAG 2.5.3). */}
        <ToolButton label={`H2 ${t("newsroom.ui.editor.h2")}`} pressed={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()} testId="tool-h2">
          <span className="text-xs font-bold">H2</span>
        </ToolButton>
        <ToolButton label={`H3 ${t("newsroom.ui.editor.h3")}`} pressed={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()} testId="tool-h3">
          <span className="text-xs font-bold">H3</span>
        </ToolButton>
        <Separator />
        <ToolButton label={t("newsroom.ui.editor.bulletList")} pressed={state.bulletList} onClick={() => chain().toggleBulletList().run()} testId="tool-bullet">
          <ListBulletIcon />
        </ToolButton>
        <ToolButton
          label={t("newsroom.ui.editor.orderedList")}
          pressed={state.orderedList}
          onClick={() => chain().toggleOrderedList().run()}
          testId="tool-ordered"
        >
          <ListOrderedIcon />
        </ToolButton>
        <ToolButton label={t("newsroom.ui.editor.quote")} pressed={state.blockquote} onClick={() => chain().toggleBlockquote().run()} testId="tool-quote">
          <QuoteIcon />
        </ToolButton>
        <Separator />
        <ToolButton label={t("newsroom.ui.editor.link")} pressed={state.link || panel === "link"} onClick={() => toggle("link")} testId="tool-link" expands>
          <LinkIcon />
        </ToolButton>
        <ToolButton label={t("newsroom.ui.editor.image")} pressed={panel === "image"} onClick={() => toggle("image")} testId="tool-image" expands>
          <ImageIcon />
        </ToolButton>
        <Separator />
        <ToolButton label={t("newsroom.ui.editor.undo")} disabled={!state.canUndo} onClick={() => chain().undo().run()} testId="tool-undo">
          <UndoIcon className="rtl:-scale-x-100" />
        </ToolButton>
        <ToolButton label={t("newsroom.ui.editor.redo")} disabled={!state.canRedo} onClick={() => chain().redo().run()} testId="tool-redo">
          <RedoIcon className="rtl:-scale-x-100" />
        </ToolButton>
      </div>
      {panel === "link" && (
        <LinkPanel
          key={state.href}
          href={state.href}
          target={state.target}
          rel={state.rel}
          onApply={(href, options) => {
            chain()
              .extendMarkRange("link")
              .setLink({ href, ...options })
              .run();
            setPanel(null);
          }}
          onRemove={() => {
            chain().extendMarkRange("link").unsetLink().run();
            setPanel(null);
          }}
          onCancel={() => setPanel(null)}
        />
      )}
      {panel === "image" && (
        <ImagePanel
          lang={lang}
          onInsert={(src, alt) => {
            chain().setImage({ src, alt }).run();
            setPanel(null);
          }}
          onCancel={() => setPanel(null)}
        />
      )}
    </div>
  );
}

function Separator() {
  return <span aria-hidden="true" className="mx-0.5 h-6 w-px bg-sand-300" />;
}

function ToolButton({
  label,
  pressed,
  disabled,
  expands,
  onClick,
  testId,
  children,
}: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  expands?: boolean;
  onClick: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      aria-pressed={expands ? undefined : pressed}
      aria-expanded={expands ? Boolean(pressed) : undefined}
      disabled={disabled}
      onClick={onClick}
      data-testid={testId}
      className={`inline-flex h-9 min-w-9 items-center justify-center rounded px-1.5 text-ink hover:bg-sand-200 disabled:opacity-40 ${pressed ? "bg-sand-200 text-desert-700" : ""}`}
    >
      {children}
    </button>
  );
}

const panelInput = "h-9 w-full rounded-md border border-sand-300 bg-white px-2 text-sm";
const panelButton = "h-9 rounded-md px-3 text-sm font-bold";

/**
 * The link and image panels are plain inputs inside the editor's form, not a nested <form> (HTML has
 * none): Enter applies them instead of submitting the item.
 */
function onEnter(apply: () => void) {
  return (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      apply();
    }
  };
}

function LinkPanel({
  href,
  target,
  rel,
  onApply,
  onRemove,
  onCancel,
}: {
  href: string;
  target: string | null;
  rel: string | null;
  onApply: (href: string, options: LinkOptions) => void;
  onRemove: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(href);
  const [error, setError] = useState<string | null>(null);
  const [options, setOptions] = useState(() => linkChoicesOf(target, rel));
  const apply = () => {
    const value = url.trim();
    if (!SAFE_URL.test(value)) return setError(t("newsroom.ui.editor.urlInvalid"));
    onApply(value, linkOptionsOf(options, rel));
  };
  const choice = (key: keyof LinkChoices, label: string) => (
    <label className="flex items-center gap-1.5 text-xs font-bold">
      <input
        type="checkbox"
        checked={options[key]}
        onChange={(e) => setOptions((o) => ({ ...o, [key]: e.target.checked }))}
        onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
        data-testid={`link-${key}`}
      />
      {label}
    </label>
  );
  return (
    <div className="flex flex-wrap items-end gap-2 border-t border-sand-200 p-2" data-testid="link-panel">
      <label className="min-w-56 flex-1 text-xs font-bold">
        {t("newsroom.ui.editor.linkUrl")}
        <input
          type="url"
          dir="ltr"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          onKeyDown={onEnter(apply)}
          className={panelInput}
          placeholder="https://"
          aria-invalid={error ? true : undefined}
          data-testid="link-url"
        />
      </label>
      <fieldset className="flex w-full flex-wrap items-center gap-x-4 gap-y-1 sm:order-last" data-testid="link-options">
        <legend className="sr-only">{t("searchSharing.link.options")}</legend>
        {choice("newTab", t("searchSharing.link.newTab"))}
        {choice("nofollow", t("searchSharing.link.nofollow"))}
        {choice("sponsored", t("searchSharing.link.sponsored"))}
      </fieldset>
      <button type="button" onClick={apply} className={`${panelButton} bg-desert-600 text-white`} data-testid="link-apply">
        {t("newsroom.ui.editor.apply")}
      </button>
      {href && (
        <button type="button" onClick={onRemove} className={`${panelButton} border border-sand-300`}>
          {t("newsroom.ui.editor.removeLink")}
        </button>
      )}
      <button type="button" onClick={onCancel} className={`${panelButton} border border-sand-300`}>
        {t("admin.cancel")}
      </button>
      {error && (
        <p role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** The link panel's options (issue 29): none is on unless the editor ticks it, or the link already had it. */
type LinkChoices = { newTab: boolean; nofollow: boolean; sponsored: boolean };
type LinkOptions = { target: string | null; rel: string | null };

function linkChoicesOf(target: string | null, rel: string | null): LinkChoices {
  const values = new Set((rel ?? "").toLowerCase().split(/\s+/));
  return { newTab: target === "_blank", nofollow: values.has("nofollow"), sponsored: values.has("sponsored") };
}

/** The link's target and rel from the choices; a link type the panel does not show (ugc) is kept as it was. */
function linkOptionsOf(choices: LinkChoices, previous: string | null): LinkOptions {
  const kept = (previous ?? "")
    .toLowerCase()
    .split(/\s+/)
    .filter((value) => value === "ugc");
  const rel = [
    ...(choices.nofollow ? ["nofollow"] : []),
    ...(choices.sponsored ? ["sponsored"] : []),
    ...kept,
    // A new tab must not reach back to the page through window.opener (the server adds them too).
    ...(choices.newTab ? ["noopener", "noreferrer"] : []),
  ];
  return { target: choices.newTab ? "_blank" : null, rel: rel.length ? rel.join(" ") : null };
}

/**
 * An image from the media library (chosen or uploaded in its dialog) or by URL, with its alternative text, which
 * the issue requires: a library file's alt text in the body's language fills it, still editable.
 */
function ImagePanel({ lang, onInsert, onCancel }: { lang: "ar" | "fr"; onInsert: (src: string, alt: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState("");
  const [alt, setAlt] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [fromLibrary, setFromLibrary] = useState<LibraryFile | null>(null);
  const altInput = useRef<HTMLInputElement>(null);
  const chosen = (file: LibraryFile) => {
    setFromLibrary(file);
    setSrc(file.url);
    setAlt(localizedText(file.alt, lang));
    setError(null);
    // Back from the dialog, the editor checks (or writes) the alt text next.
    requestAnimationFrame(() => altInput.current?.focus());
  };
  const insert = () => {
    if (!SAFE_URL.test(src.trim())) return setError(t("newsroom.ui.editor.urlInvalid"));
    if (!alt.trim()) return setError(t("newsroom.ui.editor.altRequired"));
    onInsert(src.trim(), alt.trim());
  };
  return (
    <div className="grid gap-2 border-t border-sand-200 p-2 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-end" data-testid="image-panel">
      <div className="flex flex-wrap items-center gap-2 sm:col-span-4">
        <button
          type="button"
          onClick={() => setPicking(true)}
          aria-haspopup="dialog"
          className={`${panelButton} border border-desert-600 text-desert-700 hover:bg-sand-100`}
          data-testid="image-from-library"
        >
          {t("libraryPicker.fromLibrary")}
        </button>
        {fromLibrary && src === fromLibrary.url && (
          <span className="flex min-w-0 items-center gap-2 text-xs" data-testid="image-library-chosen">
            <img src={fromLibrary.thumbnail ?? fromLibrary.url} alt="" className="h-9 w-12 rounded object-cover" />
            <span className="truncate" dir="auto">
              {fromLibrary.name}
            </span>
          </span>
        )}
      </div>
      <LibraryPicker open={picking} onClose={() => setPicking(false)} onChoose={chosen} kinds={["image"]} />
      <label className="text-xs font-bold">
        {t("newsroom.ui.editor.imageUrl")}
        <input
          type="url"
          dir="ltr"
          value={src}
          onChange={(e) => setSrc(e.target.value)}
          onKeyDown={onEnter(insert)}
          className={panelInput}
          placeholder="https://"
          data-testid="image-url"
        />
      </label>
      <label className="text-xs font-bold">
        {t("newsroom.ui.editor.imageAlt")}
        <input
          ref={altInput}
          dir="auto"
          value={alt}
          onChange={(e) => setAlt(e.target.value)}
          onKeyDown={onEnter(insert)}
          className={panelInput}
          required
          aria-invalid={error === t("newsroom.ui.editor.altRequired") ? true : undefined}
          data-testid="image-alt"
        />
      </label>
      <button type="button" onClick={insert} className={`${panelButton} bg-desert-600 text-white`} data-testid="image-insert">
        {t("newsroom.ui.editor.insert")}
      </button>
      <button type="button" onClick={onCancel} className={`${panelButton} border border-sand-300`}>
        {t("admin.cancel")}
      </button>
      {fromLibrary && src === fromLibrary.url && alt && alt === localizedText(fromLibrary.alt, lang) && (
        <p className="text-xs text-ink-soft sm:col-span-4" data-testid="image-alt-from-library">
          {t("libraryPicker.altFromLibrary")}
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 sm:col-span-4" data-testid="image-panel-error">
          {error}
        </p>
      )}
    </div>
  );
}
