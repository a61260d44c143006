import { StateRegistry } from '../events/state.js';
import { draftsSection } from './drafts.js';
import { peopleSection } from './people.js';
import { realmSection } from './realm.js';

/** Every register section; each area adds its own here. */
export function buildStateRegistry(): StateRegistry {
  const registry = new StateRegistry();
  registry.add(realmSection);
  registry.add(peopleSection);
  registry.add(draftsSection);
  return registry;
}
