import { Fragment } from "react";
import { highlightParts, type QueryAnalysis } from "#domain/arabic.ts";

/**
 * `text` as written, with the words of `query` in <mark>. Matching goes through the search normaliser, so
 * "اماره" marks "إمارة" and "شنقيط" marks "شِنْقِيطُ" with its harakat. A page of results passes the query analysed
 * once (analyzeQuery), so its cards share the analysis and what it has read.
 */
export function Highlight({ text, query }: { text: string; query: string | QueryAnalysis }) {
  return (
    <>
      {highlightParts(text, query).map((part, i) =>
        part.match ? (
          <mark key={i} className="rounded-sm bg-sand-300 px-0.5 text-ink">
            {part.text}
          </mark>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
