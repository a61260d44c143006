/** The answer to `GET /messages`: a page of messages around the anchor, and whether the ends were reached. */
import type { Message } from './message.js';

export interface MessagesAnswer {
  messages: Message[];
  anchor?: number;
  found_anchor?: boolean;
  found_oldest: boolean;
  found_newest: boolean;
  history_limited?: boolean;
}
