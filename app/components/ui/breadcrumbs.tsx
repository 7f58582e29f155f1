import type { ReactNode } from "react";
import { useTranslation } from "#app/lib/i18n.ts";

/**
 * A breadcrumb trail: a labelled nav holding a list, its steps in reading order with a chevron between them.
 * The chevron is drawn pointing towards the end of the line, right in French and English, left in Arabic. It is
 * an SVG mirrored by CSS in a right-to-left page, not a character: "›" is a bidi-mirrored glyph, so which way
 * a text engine draws it depends on the text around it (Latin names in an Arabic trail turned it round).
 */
export function Breadcrumbs({ steps, className = "" }: { steps: ReactNode[]; className?: string }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("common.breadcrumb")} className={className} data-testid="breadcrumbs">
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-1">
        {steps.map((step, i) => (
          <li key={i} className="flex items-center gap-2">
            {i > 0 && <BreadcrumbSeparator />}
            {step}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function BreadcrumbSeparator() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 16 16"
      width={12}
      height={12}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className="shrink-0 rtl:-scale-x-100"
      data-testid="breadcrumb-separator"
    >
      <path d="M6 3l5 5-5 5" />
    </svg>
  );
}
