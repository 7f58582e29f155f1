/**
 * Filling the date and date-time control of the forms (app/components/forms/date-time-input.tsx) the way a
 * person does: day, month by its name, year, hour and minute, each in its own field (a time to the second is set
 * on the hidden input instead).
 */
import type { Page } from "playwright-core";

/** Types `iso` (`YYYY-MM-DD` or `YYYY-MM-DDTHH:mm`) into the control whose hidden input has `data-testid=testId`. */
export async function fillDateTime(page: Page, testId: string, iso: string) {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(:\d{2})?)?$/.exec(iso);
  if (!m) throw new Error(`not a date: ${iso}`);
  if (m[6]) {
    // To the second (a schedule a few seconds ahead): no field takes seconds, so the value is set as a restored
    // draft sets it, on the hidden input with an \`input\` event, and the fields follow.
    await page.locator(`[data-testid="${testId}"]`).evaluate((input: HTMLInputElement, value) => {
      input.value = value;
      input.dispatchEvent(new Event("input"));
    }, iso);
    return;
  }
  const [, year, month, day, hour, minute] = m;
  await page.fill(`[data-testid="${testId}-day"]`, String(Number(day)));
  await page.selectOption(`[data-testid="${testId}-month"]`, String(Number(month)));
  await page.fill(`[data-testid="${testId}-year"]`, year);
  if (hour !== undefined) {
    await page.fill(`[data-testid="${testId}-hour"]`, hour);
    await page.fill(`[data-testid="${testId}-minute"]`, minute);
  }
}
