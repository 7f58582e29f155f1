import { useEffect, useRef, useState } from "react";

/**
 * Views over time drawn by uPlot (issue 45: a small, kept charting library, ~50 KB, in the back-office only). Its code
 * and stylesheet are fetched when a chart first mounts, so no other page carries them, and the server renders only
 * the empty frame: the chart is a picture of the table beside it, which holds the same numbers for everyone (hidden
 * from screen readers, which read the table). Time runs left to right in both languages, as on any time axis.
 */
export type ChartPoint = { at: string; views: number };

const HEIGHT = 200;

export function ViewsChart({
  points,
  step,
  label,
  testId = "analytics-chart",
}: {
  points: readonly ChartPoint[];
  step: "hour" | "day";
  label: string;
  testId?: string;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let disposed = false;
    let plot: { destroy: () => void; setSize: (size: { width: number; height: number }) => void } | null = null;
    let observer: ResizeObserver | null = null;
    Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")])
      .then(([{ default: UPlot }]) => {
        if (disposed) return;
        const series = dense(points, step);
        const width = Math.max(element.clientWidth, 200);
        plot = new UPlot(
          {
            width,
            height: HEIGHT,
            legend: { show: false },
            cursor: { show: true, drag: { x: false, y: false } },
            // The newsroom's day is UTC (Nouakchott): hours and days as the tables show them.
            tzDate: (ts: number) => UPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
            scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
            axes: [{ stroke: "#5b5148" }, { stroke: "#5b5148", size: 48 }],
            series: [{}, { label, stroke: "#a8541e", fill: "rgba(196, 102, 42, 0.15)", width: 2, points: { show: series[0].length < 60 } }],
          },
          series,
          element,
        );
        observer = new ResizeObserver(() => plot?.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT }));
        observer.observe(element);
        setState("ready");
      })
      .catch(() => {
        if (!disposed) setState("failed");
      });
    return () => {
      disposed = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [points, step, label]);

  // aria-hidden: the table beside it holds the same numbers, which is what a screen reader reads.
  return <div ref={frame} dir="ltr" aria-hidden="true" className="min-h-[200px] w-full overflow-hidden" data-testid={testId} data-state={state} />;
}

/** Every slot of the range, with 0 where nothing was viewed (the queries leave empty slots out), in uPlot's columns (seconds). */
function dense(points: readonly ChartPoint[], step: "hour" | "day"): [number[], number[]] {
  const unit = step === "hour" ? 3600 : 86400;
  if (!points.length) return [[], []];
  const seconds = points.map((p) => Math.floor(Date.parse(p.at) / 1000 / unit) * unit);
  const byTime = new Map(seconds.map((s, i) => [s, points[i].views]));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let s = seconds[0]; s <= seconds[seconds.length - 1]; s += unit) {
    xs.push(s);
    ys.push(byTime.get(s) ?? 0);
  }
  return [xs, ys];
}
