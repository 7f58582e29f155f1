/**
 * The opinion page's two forms: the newsletter sign-up and the write-article box. One schema per form, built
 * from the shared pieces, run in the browser for instant messages and on the server, which decides. Messages
 * are translation keys (newsletter.errors.*, proposal.errors.*); the Arabic e-mail message is the spec's.
 */
import { z } from "zod/mini";
import { EmailSchema, TextSchema } from "./shared.ts";

export const NewsletterSchema = z.object({
  email: EmailSchema({ required: "newsletter.errors.emailRequired", invalid: "newsletter.errors.email", tooLong: "newsletter.errors.email" }),
});
export type NewsletterInput = z.output<typeof NewsletterSchema>;

/** Limits of the write-article box; they fit the contacts row it becomes (contact form limits). */
export const PROPOSAL_LIMITS = { name: 100, title: 200, summaryMin: 30, summary: 5000 } as const;

export const PROPOSAL_FIELDS = ["name", "email", "title", "summary"] as const;
export type ProposalField = (typeof PROPOSAL_FIELDS)[number];

export const ArticleProposalSchema = z.object({
  name: TextSchema({ max: PROPOSAL_LIMITS.name, required: "proposal.errors.required", tooLong: "proposal.errors.nameTooLong" }),
  email: EmailSchema({ required: "proposal.errors.required", invalid: "proposal.errors.email", tooLong: "proposal.errors.email" }),
  title: TextSchema({ max: PROPOSAL_LIMITS.title, required: "proposal.errors.required", tooLong: "proposal.errors.titleTooLong" }),
  summary: z.pipe(
    TextSchema({ max: PROPOSAL_LIMITS.summary, multiline: true, required: "proposal.errors.required", tooLong: "proposal.errors.summaryTooLong" }),
    z.string().check(z.minLength(PROPOSAL_LIMITS.summaryMin, "proposal.errors.summaryTooShort")),
  ),
});
export type ArticleProposal = z.output<typeof ArticleProposalSchema>;

/** The schema's input from submitted form data (missing fields become null, which counts as empty). */
export function proposalFormValues(form: FormData): Record<ProposalField, FormDataEntryValue | null> {
  return { name: form.get("name"), email: form.get("email"), title: form.get("title"), summary: form.get("summary") };
}
