/**
 * How long sessions and the links of account e-mails last: read by the auth set-up, which enforces them, and by
 * the e-mails, which tell the reader. A module of their own so that neither imports the other.
 */

/** Sessions last a week and are not extended: see docs/decisions/0022-fixed-session-lifetime.md. */
export const SESSION_SECONDS = 7 * 24 * 60 * 60;
export const VERIFICATION_SECONDS = 24 * 60 * 60;
export const RESET_SECONDS = 60 * 60;
/** An invitation is a password-reset token with a longer life (the invitee may not read mail every day). */
export const INVITATION_SECONDS = 7 * 24 * 60 * 60;
