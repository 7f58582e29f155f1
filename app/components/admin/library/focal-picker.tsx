import type { KeyboardEvent, MouseEvent } from "react";
import { useTranslation } from "#app/lib/i18n.ts";
import { clampFocal, focalPosition, type FocalPoint } from "#domain/library.ts";

const STEP = 0.01;
const BIG_STEP = 0.1;

/**
 * The focal point on the picture: a click puts it where the pointer is; as a two-way slider, the arrow keys move
 * it by 1 % (10 % with Shift), Home centres it. Left and right are the picture's, whatever the page's direction.
 * Two crops below show what cards will keep.
 */
export function FocalPicker({ src, focal, onChange }: { src: string; focal: FocalPoint; onChange: (focal: FocalPoint) => void }) {
  const { t } = useTranslation();
  const percent = (n: number) => Math.round(n * 100);
  const valueText = t("library.focalValue", { x: percent(focal.x), y: percent(focal.y) });

  function click(event: MouseEvent<HTMLDivElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    onChange(clampFocal({ x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height }));
  }

  function key(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (event.key === "Home") onChange({ x: 0.5, y: 0.5 });
    else if (moves[event.key]) onChange(clampFocal({ x: focal.x + moves[event.key][0], y: focal.y + moves[event.key][1] }));
    else return;
    event.preventDefault();
  }

  return (
    <div className="space-y-2">
      <p id="library-focal-label" className="font-bold">
        {t("library.focal")}
      </p>
      <p id="library-focal-hint" className="text-xs text-ink-soft">
        {t("library.focalHint")}
      </p>
      <div dir="ltr" className="relative mx-auto w-fit">
        <div
          role="slider"
          tabIndex={0}
          aria-labelledby="library-focal-label"
          aria-describedby="library-focal-hint"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent(focal.x)}
          aria-valuetext={valueText}
          onClick={click}
          onKeyDown={key}
          className="relative cursor-crosshair overflow-hidden rounded-md bg-sand-100 focus-visible:ring-4 focus-visible:ring-desert-500 focus-visible:outline-none"
          data-testid="library-focal"
          data-x={focal.x}
          data-y={focal.y}
        >
          <img src={src} alt="" draggable={false} className="block max-h-72 w-auto max-w-full select-none" />
          <span
            aria-hidden="true"
            className="pointer-events-none absolute flex h-9 w-9 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border-[3px] border-white bg-desert-600/50 shadow-[0_0_0_2px_rgba(0,0,0,0.7)]"
            style={{ left: `${focal.x * 100}%`, top: `${focal.y * 100}%` }}
          >
            <span className="h-1.5 w-1.5 rounded-full bg-white" />
          </span>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-sm text-ink-soft" data-testid="library-focal-value">
          {valueText}
        </span>
        <button type="button" onClick={() => onChange({ x: 0.5, y: 0.5 })} className="rounded-md border border-sand-300 px-3 py-1 text-sm hover:bg-sand-100">
          {t("library.focalCenter")}
        </button>
      </div>
      <div className="flex items-end gap-3" aria-hidden="true">
        <img src={src} alt="" className="h-16 w-28 rounded object-cover" style={{ objectPosition: focalPosition(focal) }} />
        <img src={src} alt="" className="h-16 w-16 rounded object-cover" style={{ objectPosition: focalPosition(focal) }} />
        <img src={src} alt="" className="h-20 w-12 rounded object-cover" style={{ objectPosition: focalPosition(focal) }} />
      </div>
    </div>
  );
}
