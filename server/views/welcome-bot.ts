/**
 * POST /realm/test_welcome_bot_custom_message (Zulip 11, feature level 416): an administrator
 * sees how the Welcome Bot's note to new people will look: it is sent to them alone, as the
 * Welcome Bot's direct message, and its ID is answered.
 */
import { customWelcomeMessage, doSendWelcomeDirect } from '../actions/onboarding.js';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../params/params.js';
import { MAX_WELCOME_TEXT_LENGTH } from '../lib/realm/settings.js';
import { requireAdmin } from '../lib/people/require.js';

export async function testWelcomeBotMessage(req: ApiRequest): Promise<ViewResult> {
  const admin = requireAdmin(req);
  const text = req.params.require('welcome_message_custom_text', t.string);
  if (text.length > MAX_WELCOME_TEXT_LENGTH) {
    throw errors.invalidVar('welcome_message_custom_text', `welcome_message_custom_text is too long (limit: ${MAX_WELCOME_TEXT_LENGTH} characters)`);
  }
  if (!text.trim()) throw errors.badRequest('Message must not be empty');
  const messageId = await doSendWelcomeDirect(req.app, admin, customWelcomeMessage(text));
  return { message_id: messageId };
}
