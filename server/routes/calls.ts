/**
 * The route table's calls group (spread into `routes` in server/routes.ts): video-call links for the
 * organization's provider, BigBlueButton's own paths, and Hearth's own calls (views/hearth-calls.ts).
 */
import type { Route } from '../http/router.js';
import { createBigBlueButtonCall, createVideoCall, joinBigBlueButtonCall } from '../views/video-calls.js';
import {
  declineHearthCall,
  getHearthCall,
  hearthCallPage,
  heartbeatHearthCall,
  joinHearthCall,
  leaveHearthCall,
  signalHearthCall,
  stateHearthCall,
} from '../views/hearth-calls.js';

const api = (path: string) => `/api/v1${path}`;
const room = (op: string) => api(`/calls/hearth/:room_id/${op}`);

export const callRoutes: Route[] = [
  { method: 'POST', path: api('/calls/videocall/create'), view: createVideoCall, auth: 'required' },
  { method: 'GET', path: api('/calls/bigbluebutton/create'), view: createBigBlueButtonCall, auth: 'required' },
  // A link opened in a browser (outside /api/v1): the view itself requires a user.
  { method: 'GET', path: '/calls/bigbluebutton/join', view: joinBigBlueButtonCall, auth: 'optional' },
  // Hearth's own calls: the page (the chat, which opens the call), then the signalling. Signals,
  // state changes and heartbeats come several a second in a call; their own limits bound them.
  { method: 'GET', path: '/calls/hearth/:room_id', view: hearthCallPage, auth: 'none' },
  { method: 'GET', path: api('/calls/hearth/:room_id'), view: getHearthCall, auth: 'required' },
  { method: 'POST', path: room('join'), view: joinHearthCall, auth: 'required' },
  { method: 'POST', path: room('signal'), view: signalHearthCall, auth: 'required', ownRateLimit: true },
  { method: 'POST', path: room('state'), view: stateHearthCall, auth: 'required', ownRateLimit: true },
  { method: 'POST', path: room('heartbeat'), view: heartbeatHearthCall, auth: 'required', ownRateLimit: true },
  { method: 'POST', path: room('leave'), view: leaveHearthCall, auth: 'required' },
  { method: 'POST', path: room('decline'), view: declineHearthCall, auth: 'required' },
];
