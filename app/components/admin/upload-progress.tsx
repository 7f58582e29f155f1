import { useTranslation } from "#app/lib/i18n.ts";
import type { UploadPhase } from "./use-upload.ts";

/** The bar of a running upload: the phase in words, the percentage, and what a resume or a lost link means. */
export function UploadProgress({
  phase,
  progress,
  resuming,
  offline,
  label,
  testId,
}: {
  phase: UploadPhase;
  progress: number;
  resuming: boolean;
  offline: boolean;
  label: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const phaseText = phase === "creating" ? "phaseCreating" : phase === "uploading" ? "phaseUploading" : "phaseFinishing";
  return (
    <div className="space-y-1" data-testid={testId}>
      <div className="flex justify-between text-sm">
        <span role="status">{t(`newsroom.ui.videos.${phaseText}`)}</span>
        <span dir="ltr" data-testid={`${testId}-percent`}>
          {progress}%
        </span>
      </div>
      <progress max={100} value={progress} aria-label={label} className="h-2 w-full accent-desert-600" />
      {resuming && <p className="text-xs text-ink-soft">{t("newsroom.ui.videos.resumeHint")}</p>}
      {offline && (
        <p role="alert" className="text-xs text-amber-900">
          {t("newsroom.ui.videos.offline")}
        </p>
      )}
    </div>
  );
}
