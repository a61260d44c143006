// `node --import tsx --import ./test/helpers/fake-electron/register.mjs main/index.ts`
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
