import type { SVGProps } from "react";

/** The back-office's few action icons (the list rows and the editor toolbar), drawn inline. */
type IconProps = SVGProps<SVGSVGElement>;
const stroke = (props: IconProps) => ({
  width: 18,
  height: 18,
  viewBox: "0 0 24 24",
  "aria-hidden": true as const,
  focusable: "false" as const,
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round" as const,
  strokeLinejoin: "round" as const,
  ...props,
});

export const EditIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <path d="M4 20h4L19 9l-4-4L4 16v4Z" />
    <path d="m13.5 6.5 4 4" />
  </svg>
);
export const TrashIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
  </svg>
);
export const ExternalIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
  </svg>
);
export const PlusIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <path d="M12 5v14M5 12h14" />
  </svg>
);
export const ListBulletIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <path d="M9 6h11M9 12h11M9 18h11" />
    <circle cx="4.5" cy="6" r="1" fill="currentColor" />
    <circle cx="4.5" cy="12" r="1" fill="currentColor" />
    <circle cx="4.5" cy="18" r="1" fill="currentColor" />
  </svg>
);
export const ListOrderedIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <path d="M10 6h10M10 12h10M10 18h10M4 5l1.5-1V9M3.5 13.5a1.5 1.5 0 1 1 2.5 1.1L3.5 17H6.5" />
  </svg>
);
export const QuoteIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <path d="M7 7h4v5c0 2.5-1.5 4-4 5M15 7h4v5c0 2.5-1.5 4-4 5" />
  </svg>
);
export const LinkIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
  </svg>
);
export const ImageIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="10" r="1.5" />
    <path d="m21 16-5-5-9 9" />
  </svg>
);
/** Undo and redo point along the reading direction: the page flips them in right-to-left. */
export const UndoIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <path d="M9 14 4 9l5-5" />
    <path d="M4 9h11a5 5 0 0 1 0 10h-3" />
  </svg>
);
export const RedoIcon = (p: IconProps) => (
  <svg {...stroke(p)}>
    <path d="m15 14 5-5-5-5" />
    <path d="M20 9H9a5 5 0 0 0 0 10h3" />
  </svg>
);
