import { useState } from "react";

/** A stable hue from the name, so each person keeps their colour. */
function hueOf(name: string) {
  let h = 0;
  for (const ch of name) h = (h * 31 + (ch.codePointAt(0) ?? 0)) % 360;
  return h;
}

/** The profile picture, or an initials image drawn here (back-office.md §6) when there is none or it fails. */
export function Avatar({ name, initials, url, size = 36 }: { name: string; initials: string; url: string | null; size?: number }) {
  const [failed, setFailed] = useState(false);
  if (url && !failed) {
    return (
      <img
        src={url}
        alt=""
        width={size}
        height={size}
        className="shrink-0 rounded-full object-cover"
        onError={() => setFailed(true)}
        data-testid="avatar-image"
      />
    );
  }
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" className="shrink-0" data-testid="avatar-initials">
      <circle cx="20" cy="20" r="20" fill={`hsl(${hueOf(name)} 45% 38%)`} />
      <text x="20" y="21" textAnchor="middle" dominantBaseline="central" fontSize="16" fontWeight="700" fill="#fff" fontFamily="inherit">
        {initials}
      </text>
    </svg>
  );
}
