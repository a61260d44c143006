/**
 * POST /users/me/onboarding_steps: Hearth shows no onboarding steps (register's
 * `onboarding_steps` is empty), so every step name is unknown, as Zulip answers one.
 */
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { requireUser } from '../lib/people/require.js';

export function markOnboardingStep(req: ApiRequest): ViewResult {
  requireUser(req);
  const step = req.params.require('onboarding_step', t.string);
  req.params.get('schedule_navigation_tour_video_reminder_delay', t.int);
  throw errors.badRequest(`Unknown onboarding_step: ${step}`);
}
