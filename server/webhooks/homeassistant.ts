/**
 * Zulip's `homeassistant` integration ("Home Assistant"): the body Home Assistant's RESTful
 * notify platform posts as JSON, `{"message": …, "topic": …}` (its `title` sent as `topic` with
 * `title_param_name: topic`). The message is posted as it is; the topic is `topic`, else
 * "homeassistant". No event types.
 */
import { type Integration, parseJson } from './common.js';
import { Wild } from './wild.js';

export const homeassistant: Integration = {
  name: 'homeassistant',
  displayName: 'Home Assistant',
  clientName: 'HomeAssistant',
  categories: ['misc'],
  allEventTypes: null,
  configOptions: [],
  urlOptions: [],
  handle(req) {
    const payload = new Wild('payload', parseJson(req.body));
    const content = payload.at('message').str();
    const topic = payload.has('topic') ? payload.at('topic').str() : 'homeassistant';
    return { messages: [{ topic, content }] };
  },
};
