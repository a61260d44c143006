/** User status (Zulip's UserStatus): text and emoji (register `user_status`: server/register/people.ts). */

export const MAX_STATUS_TEXT = 60;
