import { useEffect, useRef, useState, type ComponentType } from "react";
import type { TiptapEditorProps } from "./tiptap-editor.tsx";

type Props = {
  name: string;
  /** The id the label points at (the textarea, then the editable area). */
  id: string;
  labelId: string;
  defaultValue: string;
  invalid: boolean;
  describedBy?: string;
  /** Called with the new HTML after each change in the rich editor. */
  onEdited?: (html: string) => void;
};

const textareaClass = "block min-h-64 w-full rounded-md border px-3 py-2 font-mono text-sm leading-relaxed outline-none focus:ring-2 focus:ring-desert-500";

/**
 * A rich-text body. The server renders a plain <textarea> holding the HTML, which is what a browser without
 * JavaScript edits and posts. In the browser the Tiptap editor is loaded on demand (its own chunk, so only
 * the editor route ever downloads it) and takes over, starting from whatever the textarea holds by then;
 * it posts its HTML through a hidden input of the same name.
 */
export function RichTextField({ name, id, labelId, defaultValue, invalid, describedBy, onEdited }: Props) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [rich, setRich] = useState<{ Editor: ComponentType<TiptapEditorProps>; initial: string } | null>(null);
  // The editor starts once, from what the textarea holds when its code arrives.
  const seed = useRef(defaultValue);

  useEffect(() => {
    let live = true;
    import("./tiptap-editor.tsx")
      .then((mod) => {
        if (live) setRich({ Editor: mod.default, initial: textarea.current?.value ?? seed.current });
      })
      .catch(() => {
        // The chunk did not arrive (offline, a new deployment): the textarea keeps working.
      });
    return () => {
      live = false;
    };
  }, []);

  if (rich) {
    const { Editor, initial } = rich;
    return <Editor name={name} id={id} labelId={labelId} initialHtml={initial} invalid={invalid} describedBy={describedBy} onEdited={onEdited} />;
  }
  return (
    <textarea
      ref={textarea}
      id={id}
      name={name}
      defaultValue={defaultValue}
      dir="rtl"
      rows={14}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      data-testid={`input-${name}`}
      data-editor="plain"
      className={`${textareaClass} ${invalid ? "border-red-600" : "border-sand-300"}`}
    />
  );
}
